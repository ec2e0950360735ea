"""Generate SciCo-test-sized jsonl files for the scorer benchmark (fixed seed).

    python bench/scoring/generate.py OUT_DIR [--topics 200] [--seed 13]

Writes ``gold.jsonl``, ``system.jsonl`` (gold perturbed, in the shape SciCo's inference
scripts write: ``id``, ``tokens``, ``mentions``, ``relations``) and ``annotator1.jsonl`` ..
``annotator4.jsonl`` (four perturbed copies of the full lines, for ``iaa``). Sizes
follow the SciCo test split: per topic ~52 mentions in ~40 paragraphs of ~150 tokens,
~18 clusters, ~12 hierarchy relations (single parent, acyclic); every line carries the
fields of the release (``flatten_tokens``, ``flatten_mentions``, ``tokens``, ``doc_ids``,
``metadata``, ``sentences``, ``mentions``, ``relations``, ``id``, ``source``).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

WORDS = ["we", "propose", "a", "novel", "method", "for", "neural", "machine", "translation", "of", "low", "resource", "languages", "using", "attention", "graph", "convolutional", "networks", "sequence", "tagging", "named", "entity", "recognition", "with", "conditional", "random", "fields", "transformer", "models", "pretrained", "language", "representations", "improve", "results", "on", "benchmark", "datasets", "semantic", "parsing", "question", "answering", "reading", "comprehension"]


def topic(rng: random.Random, topic_id: int) -> dict:
    n_paragraphs = rng.randint(32, 48)
    tokens = [[rng.choice(WORDS) for _ in range(rng.randint(110, 190))] for _ in range(n_paragraphs)]
    n_mentions = rng.randint(44, 60)
    mentions, used = [], set()
    while len(mentions) < n_mentions:
        paragraph = rng.randrange(n_paragraphs)
        start = rng.randrange(len(tokens[paragraph]) - 4)
        end = start + rng.randint(0, 3)
        if (paragraph, start, end) not in used:
            used.add((paragraph, start, end))
            mentions.append([paragraph, start, end])
    mentions.sort()
    n_clusters = rng.randint(15, 21)
    weights = [rng.paretovariate(1.2) for _ in range(n_clusters)]
    clusters = list(range(n_clusters)) + rng.choices(range(n_clusters), weights, k=n_mentions - n_clusters)
    rng.shuffle(clusters)
    relations = forest(rng, n_clusters, rng.randint(9, 15))
    return line(topic_id, tokens, [m + [c] for m, c in zip(mentions, clusters)], relations)


def forest(rng: random.Random, n_clusters: int, n_edges: int) -> list[list[int]]:
    """Single-parent, acyclic: each chosen child gets a parent earlier in a random order."""
    order = rng.sample(range(n_clusters), n_clusters)
    children = rng.sample(range(1, n_clusters), min(n_edges, n_clusters - 1))
    return [[order[rng.randrange(position)], order[position]] for position in children]


def line(topic_id: int, tokens: list[list[str]], mentions: list[list[int]], relations: list[list[int]]) -> dict:
    offsets, flat = [], []
    for paragraph in tokens:
        offsets.append(len(flat))
        flat.extend(paragraph)
    return {
        "flatten_tokens": flat,
        "flatten_mentions": [[offsets[p] + s, offsets[p] + e, c] for p, s, e, c in mentions],
        "tokens": tokens,
        "doc_ids": [f"{topic_id}-{i // 2}" for i in range(len(tokens))],
        "metadata": [{"title": f"Paper {topic_id}-{i // 2}", "paper_sha": f"{topic_id:04d}{i:04d}"} for i in range(len(tokens))],
        "sentences": [[[0, len(p) // 2], [len(p) // 2, len(p)]] for p in tokens],
        "mentions": mentions,
        "relations": relations,
        "id": topic_id,
        "source": "bench",
    }


def perturb(rng: random.Random, original: dict, strength: float) -> dict:
    """Move some mentions to other or new clusters, drop and add some relations."""
    mentions = [list(m) for m in original["mentions"]]
    clusters = sorted({m[3] for m in mentions})
    next_cluster = max(clusters) + 1
    for mention in mentions:
        if rng.random() < strength:
            if rng.random() < 0.3:
                mention[3], next_cluster = next_cluster, next_cluster + 1
            else:
                mention[3] = rng.choice(clusters)
    used = sorted({m[3] for m in mentions})
    relations = [r for r in original["relations"] if r[0] in used and r[1] in used and rng.random() > strength]
    parent_of = {child: parent for parent, child in relations}
    for _ in range(rng.randint(0, 3)):
        parent, child = rng.sample(used, 2) if len(used) > 1 else (used[0], used[0])
        if child in parent_of or parent == child or is_ancestor(child, parent, parent_of):
            continue
        parent_of[child] = parent
        relations.append([parent, child])
    result = dict(original)
    result["mentions"] = mentions
    offsets = [0]
    for paragraph in original["tokens"]:
        offsets.append(offsets[-1] + len(paragraph))
    result["flatten_mentions"] = [[offsets[p] + s, offsets[p] + e, c] for p, s, e, c in mentions]
    result["relations"] = relations
    return result


def model_output(topic: dict) -> dict:
    """What SciCo's inference scripts write: only id, tokens, mentions and relations."""
    return {key: topic[key] for key in ("id", "tokens", "mentions", "relations")}


def is_ancestor(node: int, of: int, parent_of: dict[int, int]) -> bool:
    while of in parent_of:
        of = parent_of[of]
        if of == node:
            return True
    return False


def write(path: Path, topics: list[dict]) -> None:
    with path.open("w", encoding="utf-8") as stream:
        for item in topics:
            stream.write(json.dumps(item) + "\n")


def generate(out_dir: Path, topics: int = 200, seed: int = 13) -> list[Path]:
    rng = random.Random(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    gold = [topic(rng, 1000 + i) for i in range(topics)]
    files = {"gold.jsonl": gold, "system.jsonl": [model_output(perturb(rng, t, 0.25)) for t in gold]}
    for annotator in range(1, 5):
        files[f"annotator{annotator}.jsonl"] = [perturb(rng, t, 0.12) for t in gold]
    for name, content in files.items():
        write(out_dir / name, content)
    return [out_dir / name for name in files]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--topics", type=int, default=200)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    for path in generate(args.out_dir, args.topics, args.seed):
        print(path)


if __name__ == "__main__":
    main()
