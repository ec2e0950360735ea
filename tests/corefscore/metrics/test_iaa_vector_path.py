"""The IAA aggregation's numpy path (metrics with a vector form, when intervals are asked
for) gives the scalar path's floats exactly: per pair and topic, AVG, MAX, the micro scores
and MAX-macro (the stored report must equal the from-scratch one)."""

import random
from dataclasses import replace

import pytest

from corefscore.metrics.counts import Counts
from corefscore.metrics.iaa import aggregate
from corefscore.scoring import evaluate

SCALAR = ("avg", "std", "max_micro", "max_macro")


def counts(rng):
    den = rng.randint(0, 30)
    return Counts(rng.random() * den, den, rng.randint(0, den), den) if den else Counts()


def record(rng):
    return {
        "coref": {m: counts(rng) for m in ("mentions", "muc", "bcub", "ceafe", "lea")},
        "hierarchy": counts(rng),
        "hierarchy_raw": counts(rng),
        "hierarchy_50": counts(rng),
        "path": (rng.random() * 7, rng.randint(0, 9)),
        "mention_exact": counts(rng),
        "mention_relaxed": counts(rng),
    }


@pytest.mark.parametrize("seed", range(5))
def test_the_numpy_path_gives_the_scalar_paths_floats(seed):
    rng = random.Random(seed)
    names = ["a", "b", "c", "d"]
    results = {}
    for topic in range(rng.randint(1, 60)):
        present = sorted(rng.sample(names, rng.randint(2, 4)))
        results[f"t{topic}"] = {
            f"{x}-{y}": record(rng) for i, x in enumerate(present) for y in present[i + 1 :]
        }
    metrics = evaluate.IAA_METRICS["scico"]
    scalar_metrics = [replace(m, vector=None, score_sums=None) for m in metrics]

    topics, overall = aggregate(results, metrics)  # intervals: the numpy path
    expected_topics, expected_overall = aggregate(results, scalar_metrics)

    assert topics == expected_topics
    for name, scores in expected_overall.items():
        assert {k: overall[name][k] for k in SCALAR} == {k: scores[k] for k in SCALAR}
        assert overall[name]["avg_ci"] is not None
