"""What the agreement report's 95% bootstrap intervals cost (docs/scoring.md): the IAA aggregation
of 1,000 topics x 4 annotators (6 pairs, the SciCo metrics) with and without the intervals.

    PYTHONPATH=. .venv/bin/python -m bench.bootstrap_cost [TOPICS]
"""

from __future__ import annotations

import random
import sys
import time

from corefscore.corpus import TopicData
from corefscore.metrics.iaa import aggregate
from corefscore.scoring import evaluate
from corefscore.scoring.api import _iaa_topic, from_topic
from tests.corefscore.scoring.builders import scico_topic


def _topic(rng: random.Random, topic_id: int) -> TopicData:
    mentions = [[0, 3 * i, 3 * i + 1, rng.choice("abcd")] for i in range(12)]
    present = sorted({str(m[3]) for m in mentions})
    relations = [(present[0], c) for c in present[1:] if rng.random() < 0.6]
    return scico_topic(topic_id, mentions, relations)


def main(topics: int = 1000) -> None:
    rng = random.Random(26)
    results = {}
    for topic_id in range(topics):
        annotations: list = [from_topic(_topic(rng, topic_id)) for _ in range(4)]
        results[str(topic_id)] = _iaa_topic(annotations, "scico", None, False, "closure")
    metrics = evaluate.IAA_METRICS["scico"]
    start = time.perf_counter()
    aggregate(results, metrics, weights=False)  # (False: no resamples, no intervals)
    plain = time.perf_counter() - start
    start = time.perf_counter()
    aggregate(results, metrics)
    with_ci = time.perf_counter() - start
    print(
        f"{topics} topics x 4 annotators, {len(metrics)} metrics: aggregation {plain:.3f} s, "
        f"with 1,000-resample intervals {with_ci:.3f} s (intervals {with_ci - plain:.3f} s)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
