"""`train_suggester`: gold topics in, a `trained` backend directory out.

Steps: split the topics (seeded) into training and held-out ones; embed every mention once with
the frozen encoder; fit the four-class pair MLP on the training topics; tune the clustering and
hierarchy thresholds on the held-out topics with `score_scico` (best path ratio, as SciCo);
save weights + config.json (encoder path, context, thresholds, held-out scores).
Pure Python: the Django command `train_suggester --project NAME` loads the topics and calls it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from corefscore.corpus import TopicData
from modelserve.backends import pair_classifier
from modelserve.backends.pair_classifier import (
    PairData,
    pair_labels,
    pair_probabilities,
    topic_inputs,
)
from modelserve.devices import pick_device
from modelserve.encoders import MentionEncoder
from modelserve.training.cross_encoder import tune_decoding
from modelserve.training.thresholds import GRID, tune_thresholds

# SciCo appendix B.2: agglomerative distance threshold 0.6 (similarity 0.4), hierarchy 0.4.
SCICO_THRESHOLDS = (0.4, 0.4)


def train_suggester(
    topics: list[TopicData],
    out_dir: str | Path,
    *,
    encoder_path: str | None = None,
    seed: int = 0,
    holdout_fraction: float = 0.2,
    log: Callable[[str], None] = print,
    epochs: int = 20,
    hidden: int = 256,
    device: str = "auto",
    context: str = "document",
    max_length: int | None = None,
    batch_size: int = 32,
    threshold_grid: tuple[float, ...] = GRID,
) -> dict[str, Any]:
    """Train, tune and save a pair-model suggester; returns what it did and the held-out scores.

    Topics need gold clusters (`mention.cluster`); `topic.relations` gives the hierarchy. With a
    single usable topic nothing can be held out: the model trains on it and keeps SciCo's
    thresholds, and the result says so (`holdout_topics` empty, `holdout_scores` None).
    """
    started = time.monotonic()
    usable = [t for t in topics if sum(m.cluster is not None for m in t.mentions) >= 2]
    if not usable:
        raise ValueError("no topic with at least two gold-clustered mentions to train on")
    shuffled = usable[:]
    random.Random(seed).shuffle(shuffled)
    held = (
        min(max(1, round(len(shuffled) * holdout_fraction)), len(shuffled) - 1)
        if len(shuffled) > 1
        else 0
    )
    holdout, train = shuffled[:held], shuffled[held:]
    log(
        f"topics: {len(train)} for training, {len(holdout)} held out "
        f"({len(topics) - len(usable)} without gold skipped)"
    )

    target = pick_device(device)
    encoder = MentionEncoder(
        encoder_path, device=target, context=context, max_length=max_length, batch_size=batch_size
    )
    alone = MentionEncoder(
        encoder_path, device=target, context="none", max_length=max_length, batch_size=batch_size
    )
    data = {}
    for number, topic in enumerate(usable, 1):
        data[id(topic)] = PairData(topic, *topic_inputs(topic, encoder, alone), pair_labels(topic))
        if number % 10 == 0 or number == len(usable):
            log(f"embedded {number}/{len(usable)} topics")

    model = pair_classifier.fit(
        [data[id(t)] for t in train],
        seed=seed,
        epochs=epochs,
        hidden=hidden,
        device=target,
        log=log,
    )

    if holdout:
        probabilities = [
            pair_probabilities(model, data[id(t)].embeddings, data[id(t)].scalars) for t in holdout
        ]
        cluster_threshold, hierarchy_threshold, scores = tune_thresholds(
            holdout, probabilities, grid=threshold_grid, log=log
        )
        # SciCo's decoding (the backend's default) gets its own thresholds, as the cross-encoder
        scico = tune_decoding(holdout, probabilities, log)
        log(
            f"held-out: CoNLL F1 {scores['conll_f1']:.4f}, "
            f"hierarchy F1 {scores['hierarchy_f1']:.4f}, "
            f"path ratio {scores['path_ratio_micro']:.4f} (micro) "
            f"{scores['path_ratio_macro']:.4f} (macro)"
        )
    else:
        cluster_threshold, hierarchy_threshold = SCICO_THRESHOLDS
        scores = None
        scico = tune_decoding([], [], log)
        log("one topic only: nothing held out, SciCo's thresholds kept (0.4, 0.4)")

    config = {
        "encoder_path": encoder_path,  # null: the packaged MiniLM, wherever it is installed
        "context": context,
        "max_length": encoder.max_length,
        "cluster_threshold": cluster_threshold,
        "hierarchy_threshold": hierarchy_threshold,
        "agg_threshold": scico["agg_threshold"],
        "hypernym_threshold": scico["hypernym_threshold"],
        "scico_holdout_scores": scico["dev"],
        "seed": seed,
        "epochs": epochs,
        "train_topics": [t.external_id for t in train],
        "holdout_topics": [t.external_id for t in holdout],
        "holdout_scores": scores,
    }
    pair_classifier.save(model.cpu(), out_dir, config)
    log(f"saved to {out_dir} in {time.monotonic() - started:.1f} s")
    return {**config, "out_dir": str(out_dir), "seconds": round(time.monotonic() - started, 1)}
