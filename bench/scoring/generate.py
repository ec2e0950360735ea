"""Generate SciCo-test-sized jsonl files for the scorer benchmark (fixed seed).

    python bench/scoring/generate.py OUT_DIR [--topics 200] [--seed 13]

Writes ``gold.jsonl``, ``system.jsonl`` (gold perturbed, in the shape SciCo's inference
scripts write: ``id``, ``tokens``, ``mentions``, ``relations``) and ``annotator1.jsonl`` ..
``annotator4.jsonl`` (four perturbed copies of the full lines, for ``iaa``). Sizes
follow the SciCo test split: per topic ~52 mentions in ~40 paragraphs of ~150 tokens,
~18 clusters, ~12 hierarchy relations (single parent, acyclic); every line carries the
fields of the test release (``flatten_tokens``, ``flatten_mentions``, ``tokens``,
``doc_ids``, ``metadata``, ``sentences``, ``mentions``, ``relations``, ``id``, ``source``,
``hard_10``, ``hard_20``, ``curated``).

Text is shaped like SciCo's: tokens of scientific English as spaCy splits them (mean 4.9
characters, 14% punctuation, a few non-ASCII tokens that ``json.dumps`` escapes; measured on
the SciCo pilot topics in ``../shared/data/corefi``), paragraphs cut into sentences of
15-35 tokens, integer doc ids, the six metadata fields per paragraph. A gold line is then
~9 bytes per token, as in the release, where ``flatten_tokens`` repeats every token.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

# Content words, function words, punctuation and a few non-ASCII tokens, weighted so that
# tokens average 4.9 characters with 14% punctuation, as in SciCo's text.
CONTENT = [
    "propose",
    "novel",
    "method",
    "neural",
    "machine",
    "translation",
    "low",
    "resource",
    "languages",
    "using",
    "attention",
    "graph",
    "convolutional",
    "networks",
    "sequence",
    "tagging",
    "named",
    "entity",
    "recognition",
    "conditional",
    "random",
    "fields",
    "transformer",
    "models",
    "pretrained",
    "language",
    "representations",
    "improve",
    "results",
    "benchmark",
    "datasets",
    "semantic",
    "parsing",
    "question",
    "answering",
    "reading",
    "comprehension",
    "model",
    "training",
    "data",
    "performance",
    "task",
    "tasks",
    "learning",
    "show",
    "state",
    "art",
    "BLEU",
    "F1",
    "LSTM",
    "encoder",
    "decoder",
    "layer",
    "embeddings",
    "NMT",
    "BERT",
    "2019",
    "1",
    "et",
    "al",
    "Table",
    "Figure",
    "approach",
    "baseline",
    "accuracy",
]
FUNCTION = [
    "the",
    "of",
    "and",
    "a",
    "to",
    "in",
    "is",
    "for",
    "we",
    "on",
    "with",
    "as",
    "by",
    "that",
    "this",
    "are",
    "an",
    "be",
    "from",
    "our",
    "it",
    "at",
    "or",
    "can",
    "which",
    "than",
    "not",
    "has",
]
PUNCTUATION = [".", ",", "(", ")", "-", ":", ";", "%", "[", "]"]
NON_ASCII = ["\u2013", "\u03b1", "\u00d7", "\u2019"]
VOCABULARY = CONTENT + FUNCTION + PUNCTUATION + NON_ASCII
WEIGHTS = (
    [0.59 / len(CONTENT)] * len(CONTENT)
    + [0.265 / len(FUNCTION)] * len(FUNCTION)
    + [0.14 / len(PUNCTUATION)] * len(PUNCTUATION)
    + [0.005 / len(NON_ASCII)] * len(NON_ASCII)
)
SOURCES = ["pwc", "hypernym", "curated"]


def topic(rng: random.Random, topic_id: int) -> dict:
    n_paragraphs = rng.randint(32, 48)
    tokens = [
        rng.choices(VOCABULARY, WEIGHTS, k=rng.randint(110, 190)) for _ in range(n_paragraphs)
    ]
    n_mentions = rng.randint(44, 60)
    mentions: list[list[int]] = []
    used: set[tuple[int, int, int]] = set()
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
    clusters = list(range(n_clusters)) + rng.choices(
        range(n_clusters), weights, k=n_mentions - n_clusters
    )
    rng.shuffle(clusters)
    relations = forest(rng, n_clusters, rng.randint(9, 15))
    result = line(
        rng, topic_id, tokens, [m + [c] for m, c in zip(mentions, clusters, strict=True)], relations
    )
    hard = rng.random()
    result.update({"hard_10": hard < 0.1, "hard_20": hard < 0.2, "curated": rng.random() < 0.1})
    return result


def sentences(rng: random.Random, length: int) -> list[list[int]]:
    """Sentence boundaries of 15-35 tokens, ``[start, end]`` with exclusive ends (spaCy style)."""
    bounds, start = [], 0
    while start < length:
        end = min(length, start + rng.randint(15, 35))
        if length - end < 8:
            end = length
        bounds.append([start, end])
        start = end
    return bounds


def forest(rng: random.Random, n_clusters: int, n_edges: int) -> list[list[int]]:
    """Single-parent, acyclic: each chosen child gets a parent earlier in a random order."""
    order = rng.sample(range(n_clusters), n_clusters)
    children = rng.sample(range(1, n_clusters), min(n_edges, n_clusters - 1))
    return [[order[rng.randrange(position)], order[position]] for position in children]


def line(
    rng: random.Random,
    topic_id: int,
    tokens: list[list[str]],
    mentions: list[list[int]],
    relations: list[list[int]],
) -> dict:
    offsets: list[int] = []
    flat: list[str] = []
    for paragraph in tokens:
        offsets.append(len(flat))
        flat.extend(paragraph)
    papers = [(topic_id * 100 + i // 3) for i in range(len(tokens))]  # ~3 paragraphs per paper
    return {
        "flatten_tokens": flat,
        "flatten_mentions": [[offsets[p] + s, offsets[p] + e, c] for p, s, e, c in mentions],
        "tokens": tokens,
        "doc_ids": papers,
        "metadata": [
            {
                "title": f"Paper {paper}: " + " ".join(rng.choices(CONTENT, k=8)),
                "paper_sha": f"{rng.getrandbits(160):040x}",
                "fields_of_study": "Computer Science",
                "Year": str(rng.randint(1995, 2020)),
                "BookTitle": rng.choice(
                    ["ACL", "EMNLP", "NAACL", "NeurIPS", "ICML", "ICLR", "CVPR", ""]
                ),
                "url": f"https://www.semanticscholar.org/paper/{paper}",
            }
            for paper in papers
        ],
        "sentences": [sentences(rng, len(p)) for p in tokens],
        "mentions": mentions,
        "relations": relations,
        "id": topic_id,
        "source": rng.choice(SOURCES),
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
    relations = [
        r
        for r in original["relations"]
        if r[0] in used and r[1] in used and rng.random() > strength
    ]
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
    files = {
        "gold.jsonl": gold,
        "system.jsonl": [model_output(perturb(rng, t, 0.25)) for t in gold],
    }
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
