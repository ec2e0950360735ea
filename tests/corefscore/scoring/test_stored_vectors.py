"""The stored report reads the metrics' counts straight from the records' JSON
(docs/agreement-store.md): the columns it takes are each metric's own `vector` of the decoded
record, and aggregating from them gives what aggregating the decoded records gives, intervals
included."""

import random

import numpy
import pytest

from corefscore.corpus import LINK_TYPES
from corefscore.metrics.counts import Counts
from corefscore.metrics.iaa import aggregate
from corefscore.scoring import evaluate
from corefscore.scoring.stored import (
    _vector_rows,
    iaa_from_records,
    record_from_json,
    record_json,
    vector_columns,
)


def counts(rng):
    den = rng.randint(0, 30)
    if not den:
        return Counts()
    if rng.random() < 0.5:  # B3 and CEAF-e numerators are fractions, the others whole
        return Counts(rng.random() * den, den, rng.random() * den, den + rng.randint(0, 3))
    return Counts(rng.randint(0, den), den, rng.randint(0, den), den + rng.randint(0, 3))


def scico(rng):
    return {
        "coref": {m: counts(rng) for m in ("mentions", "muc", "bcub", "ceafe", "lea")},
        "hierarchy": counts(rng),
        "hierarchy_raw": counts(rng),
        "hierarchy_50": counts(rng),
        "path": (rng.random() * 7, rng.randint(0, 9)),
        "mention_exact": counts(rng),
        "mention_relaxed": counts(rng),
    }


def chemu(rng):
    units = [[rng.randint(0, 1) for _ in range(8)] for _ in range(2)]
    return {
        "relation_exact": counts(rng),
        "relation_relaxed": counts(rng),
        "alpha_relations": [[rng.choice(["a", "b", None]) for _ in range(5)] for _ in range(2)],
        "alpha_mentions": units,
        **{
            f"alpha_mentions_{kind.lower()}": [
                [rng.randint(0, 1) for _ in range(8)] for _ in range(2)
            ]
            for kind in LINK_TYPES
        },
        "anaphor_exact": counts(rng),
        "anaphor_relaxed": counts(rng),
        "mention_exact": counts(rng),
        "mention_relaxed": counts(rng),
    }


@pytest.mark.parametrize("scheme", ["scico", "chemu"])
def test_every_vector_metric_has_its_columns(scheme):
    with_vectors = {m.name for m in evaluate.IAA_METRICS[scheme] if m.vector and m.score_sums}
    assert set(vector_columns(scheme)) == with_vectors


@pytest.mark.parametrize("scheme", ["scico", "chemu"])
def test_the_columns_are_each_metrics_vector_of_the_decoded_record(scheme):
    rng = random.Random(26)
    records = [
        record_json({scheme: (scico if scheme == "scico" else chemu)(rng)}) for _ in range(9)
    ]
    rows = _vector_rows(records, scheme)
    for metric in evaluate.IAA_METRICS[scheme]:
        if metric.name not in vector_columns(scheme):
            continue
        expected = [
            metric.vector(metric.extract(record_from_json(record)[scheme])) for record in records
        ]
        taken = rows[:, vector_columns(scheme)[metric.name]]
        assert taken.tolist() == numpy.asarray(expected, dtype=numpy.float64).tolist()


@pytest.mark.parametrize(("scheme", "seed"), [("scico", 1), ("scico", 2), ("chemu", 3)])
@pytest.mark.parametrize("intervals", [True, False])
def test_the_report_from_json_records_is_the_aggregate_of_the_decoded_ones(scheme, seed, intervals):
    rng = random.Random(seed)
    make = scico if scheme == "scico" else chemu
    names = ["a", "b", "c", "d"]
    stored = {}
    for topic in range(rng.randint(1, 40)):
        present = sorted(rng.sample(names, rng.randint(2, 4)))
        stored[f"t{topic}"] = {
            f"{x}-{y}": record_json({scheme: make(rng)})
            for i, x in enumerate(present)
            for y in present[i + 1 :]
        }
    decoded = {
        topic: {pair: record_from_json(record)[scheme] for pair, record in pairs.items()}
        for topic, pairs in stored.items()
    }
    metrics = evaluate.IAA_METRICS[scheme]
    topics, overall = aggregate(decoded, metrics, weights=None if intervals else False)

    # (repr: the same keys in the same order, and alpha's NaN on degenerate units compares)
    assert repr(iaa_from_records(stored, scheme, intervals=intervals)) == repr(
        {"topics": topics, "overall": overall}
    )
    for name in vector_columns(scheme):  # (without intervals, still from the arrays)
        assert (overall[name]["avg_ci"] is not None) == intervals
