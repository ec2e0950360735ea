"""`train_chemu`: gold ChEMU-style topics in, a `chemu` backend model directory out.

Steps: split the annotated topics (seeded) into training and held-out ones; turn every
candidate pair of the training topics into features and a label; fit the pair classifier;
decode the held-out topics exactly as the backend does and score them with `score_chemu`;
save the model with its configuration and held-out scores.

Labels: a pair's gold type, else NONE. COREFERENCE is labelled on its transitive closure
(an anaphor is also labelled coreferent with its antecedent's antecedents), as scoring
expands it: otherwise a pair the scorer counts as right would be taught as wrong.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from corefscore.corpus import TopicData
from corefscore.scoring.api import score_chemu
from modelserve.backends import chemu_model
from modelserve.backends.chemu_features import SnippetFeatures
from modelserve.backends.chemu_linking import suggest_links, with_links
from modelserve.backends.chemu_model import CLASSES, ChemuModel
from modelserve.devices import pick_device

FEATURES_VERSION = 1


def pair_labels(topic: TopicData, features: SnippetFeatures) -> dict[tuple[int, int], int]:
    """(anaphor, antecedent) text-order positions -> class index, for the gold pairs."""
    position = {mention: k for k, mention in enumerate(features.order)}
    labels: dict[tuple[int, int], int] = {}
    coreferent: dict[int, set[int]] = {}
    for link in topic.links:
        if (
            link.anaphor not in position
            or link.antecedent not in position
            or link.type not in CLASSES
        ):
            continue
        pair = (position[link.anaphor], position[link.antecedent])
        labels.setdefault(pair, CLASSES.index(link.type))
        if link.type == "COREFERENCE":
            coreferent.setdefault(pair[0], set()).add(pair[1])
    for anaphor, direct in coreferent.items():
        reached, stack = set(), list(direct)
        while stack:
            antecedent = stack.pop()
            if antecedent not in reached and antecedent != anaphor:
                reached.add(antecedent)
                stack.extend(coreferent.get(antecedent, ()))
        for antecedent in reached:
            labels.setdefault((anaphor, antecedent), CLASSES.index("COREFERENCE"))
    return labels


def pair_examples(
    topics: list[TopicData], min_count: int
) -> tuple[dict[str, int], chemu_model.PairTable]:
    """The feature vocabulary (features seen at least `min_count` times) and the packed pairs.

    Features are interned as they are made (an array of ids per pair, not ~80 strings), which
    keeps the whole training set to some tens of MB.
    """
    interned: dict[str, int] = {}
    rows, numbers, labels = [], [], []
    for topic in topics:
        for document in range(len(topic.documents)):
            features = SnippetFeatures(topic, document)
            gold = pair_labels(topic, features)
            for i, j in features.candidate_pairs():
                strings, values = features.pair(i, j)
                rows.append(
                    np.fromiter(
                        (interned.setdefault(s, len(interned)) for s in strings), dtype=np.int64
                    )
                )
                numbers.append(values)
                labels.append(gold.get((i, j), 0))
    counts = (
        np.bincount(np.concatenate(rows), minlength=len(interned))
        if rows
        else np.zeros(0, dtype=np.int64)
    )
    kept = sorted(feature for feature, k in interned.items() if counts[k] >= min_count)
    vocabulary = {feature: index + 1 for index, feature in enumerate(kept)}
    new_id = np.zeros(len(interned), dtype=np.int64)
    for feature, k in interned.items():
        new_id[k] = vocabulary.get(feature, 0)
    id_rows = [ids[ids > 0] for ids in (new_id[row] for row in rows)]
    return vocabulary, chemu_model.pack_ids(id_rows, numbers, labels)


def split_topics(
    topics: list[TopicData], holdout_fraction: float, seed: int
) -> tuple[list[TopicData], list[TopicData]]:
    """(training, held-out): a seeded shuffle; at least one of each when there are two topics."""
    shuffled = topics[:]
    random.Random(seed).shuffle(shuffled)
    held = round(len(shuffled) * holdout_fraction) if holdout_fraction > 0 else 0
    if len(shuffled) > 1 and holdout_fraction > 0:
        held = min(max(1, held), len(shuffled) - 1)
    else:
        held = 0
    return shuffled[held:], shuffled[:held]


def train_chemu(
    topics: list[TopicData],
    out_dir: str | Path,
    *,
    seed: int = 0,
    holdout_fraction: float = 0.15,
    epochs: int = 3,
    hidden: int = 128,
    min_count: int = 2,
    threshold: float = 0.5,
    device: str = "auto",
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Train, evaluate on the held-out topics and save; returns what it did and the scores."""
    started = time.monotonic()
    usable = [t for t in topics if t.links and len(t.mentions) >= 2]
    if not usable:
        raise ValueError("no topic with gold links to train on")
    train, holdout = split_topics(usable, holdout_fraction, seed)
    skipped = len(topics) - len(usable)
    log(
        f"topics: {len(train)} for training, {len(holdout)} held out "
        f"({skipped} without links skipped)"
    )

    vocabulary, table = pair_examples(train, min_count)
    log(
        f"pairs: {len(table)} ({int((table.labels > 0).sum())} linked), features: {len(vocabulary)}"
    )
    target = pick_device(device)
    torch.manual_seed(seed)  # the initial weights, then fit() seeds the batches and dropout
    scorer = chemu_model.PairScorer(len(vocabulary), table.numbers.shape[1], hidden=hidden)
    chemu_model.fit(scorer, table, epochs=epochs, seed=seed, device=target, log=log)
    config = {
        "backend": "chemu",
        "features_version": FEATURES_VERSION,
        "classes": list(CLASSES),
        "number_count": int(table.numbers.shape[1]),
        "hidden": hidden,
        "threshold": threshold,
        "seed": seed,
        "epochs": epochs,
        "min_count": min_count,
        "holdout_fraction": holdout_fraction,
        "train_topics": len(train),
        "holdout_topics": [t.external_id for t in holdout],
    }
    model = ChemuModel(scorer, vocabulary, config, target)
    train_seconds = time.monotonic() - started

    scores = None
    if holdout:
        predicting = time.monotonic()
        system = [with_links(topic, suggest_links(model, topic)) for topic in holdout]
        config["predict_seconds_per_topic"] = (time.monotonic() - predicting) / len(holdout)
        scores = score_chemu(holdout, system)
        for line in score_lines(scores):
            log(line)
    config.update(train_seconds=round(train_seconds, 1), holdout_scores=scores)
    chemu_model.save(model, out_dir)
    log(f"saved to {out_dir} (training took {train_seconds:.0f} s)")
    return {
        "out_dir": str(out_dir),
        "train_topics": len(train),
        "holdout_topics": len(holdout),
        "scores": scores,
        "train_seconds": train_seconds,
    }


def score_lines(scores: dict[str, Any]) -> list[str]:
    """A small table of held-out scores: exact and relaxed P/R/F1, overall and per type."""
    lines = [
        f"held-out {'':20} {'exact P':>8} {'R':>7} {'F1':>7}   {'relaxed P':>9} {'R':>7} {'F1':>7}"
    ]
    rows = [("overall", scores["exact"]["overall"], scores["relaxed"]["overall"])]
    rows += [
        (name, scores["exact"]["per_type"][name], scores["relaxed"]["per_type"][name])
        for name in scores["exact"]["per_type"]
    ]
    rows.append(("anaphors", scores["anaphors"]["exact"], scores["anaphors"]["relaxed"]))
    for name, exact, relaxed in rows:
        lines.append(
            f"held-out {name:20} "
            f"{_cell(exact['precision'], 8)} {_cell(exact['recall'], 7)} {_cell(exact['f1'], 7)}"
            f"   {_cell(relaxed['precision'], 9)} {_cell(relaxed['recall'], 7)}"
            f" {_cell(relaxed['f1'], 7)}"
        )
    if any(cell is None for _, exact, relaxed in rows for cell in (exact["f1"], relaxed["f1"])):
        lines.append("held-out -: undefined (a type neither side has: nothing to score)")
    return lines


def _cell(value: float | None, width: int) -> str:
    """A score, or "-" where undefined (a type neither side has: nothing to score)."""
    return f"{'-' if value is None else format(value, '.4f'):>{width}}"
