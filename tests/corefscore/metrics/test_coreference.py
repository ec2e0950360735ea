"""MUC, B3, CEAF-e, LEA and coval's mention score: identical to coval, digit for digit."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.metrics.coreference import (
    METRICS,
    ceafe_similarity,
    conll_f1,
    coreference_counts,
    prepare_clusters,
)
from corefscore.metrics.counts import Counts, add_counts

from .reference_scorers import coval_evaluate, coval_f1
from .strategies import clusterings

SETTINGS = settings(max_examples=300, deadline=None)


def as_tuple(counts: Counts) -> tuple:
    return (counts.p_num, counts.p_den, counts.r_num, counts.r_den)


@SETTINGS
@given(key=clusterings(), response=clusterings(), keep_singletons=st.booleans())
def test_every_metric_equals_covals_numbers_exactly(key, response, keep_singletons):
    ours = coreference_counts(key, response, keep_singletons=keep_singletons)
    theirs = coval_evaluate([(key, response)], keep_singletons)
    for name in METRICS:
        assert as_tuple(ours[name]) == pytest.approx(theirs[name], rel=0, abs=0), name
        assert ours[name].f1 == coval_f1(*theirs[name])


@SETTINGS
@given(documents=st.lists(st.tuples(clusterings(), clusterings()), min_size=1, max_size=5))
def test_micro_average_over_topics_equals_covals_summed_evaluator(documents):
    totals = {
        name: add_counts(coreference_counts(key, response)[name] for key, response in documents)
        for name in METRICS
    }
    theirs = coval_evaluate(documents, keep_singletons=False)
    for name in METRICS:
        assert as_tuple(totals[name]) == theirs[name], name
    expected_conll = (
        coval_f1(*theirs["muc"]) + coval_f1(*theirs["bcub"]) + coval_f1(*theirs["ceafe"])
    ) / 3
    assert conll_f1(totals) == expected_conll


@SETTINGS
@given(key=clusterings(mentions=20, clusters=9), response=clusterings(mentions=20, clusters=9))
def test_ceafe_total_equals_covals_to_the_last_bit_on_large_tie_heavy_topics(key, response):
    from .reference_scorers import coval_ceafe

    key_clusters, response_clusters = prepare_clusters(key), prepare_clusters(response)
    assert (
        ceafe_similarity(key_clusters, response_clusters)
        == coval_ceafe(response_clusters, key_clusters)[0]
    )


def test_ceafe_takes_the_optimal_alignment_where_greedy_best_first_would_not():
    # phi(k1, r1) = 4/6, phi(k1, r2) = 2/5, phi(k2, r1) = 2/5, phi(k2, r2) = 0.
    # Best-first takes k1-r1 (0.667) and leaves k2 with r2 (0); optimal is 2/5 + 2/5 = 0.8.
    key = [["a", "b", "c"], ["d", "e"]]
    response = [["a", "b", "d"], ["c", "x"]]
    counts = coreference_counts(key, response)["ceafe"]
    assert (counts.r_num, counts.r_den, counts.p_den) == (0.8, 2, 2)


@SETTINGS
@given(key=clusterings(), response=clusterings(), keep_singletons=st.booleans())
def test_f1_is_symmetric_in_key_and_response(key, response, keep_singletons):
    forward = coreference_counts(key, response, keep_singletons=keep_singletons)
    backward = coreference_counts(response, key, keep_singletons=keep_singletons)
    for name in METRICS:
        assert forward[name].f1 == pytest.approx(backward[name].f1, rel=1e-12), name


@SETTINGS
@given(clusters=clusterings(missing=False), keep_singletons=st.booleans())
def test_identical_clusterings_score_one_on_every_metric(clusters, keep_singletons):
    counts = coreference_counts(clusters, clusters, keep_singletons=keep_singletons)
    if not prepare_clusters(clusters, keep_singletons=keep_singletons):
        return  # nothing left to score: 0/0 counts as 0
    for name in ("mentions", "bcub", "ceafe", "lea"):
        assert counts[name].f1 == 1.0, name
    if counts["muc"].r_den:
        assert counts["muc"].f1 == 1.0


@SETTINGS
@given(key=clusterings(), response=clusterings(), seed=st.integers(0, 10**6))
def test_relabelling_mentions_and_reordering_clusters_changes_no_score(key, response, seed):
    rng = random.Random(seed)
    names = {m: f"m{rng.random()}" for cluster in key + response for m in cluster}
    relabel = lambda clusters: [
        [names[m] for m in rng.sample(c, len(c))] for c in rng.sample(clusters, len(clusters))
    ]
    before = coreference_counts(key, response)
    after = coreference_counts(relabel(key), relabel(response))
    for name in METRICS:
        assert after[name].f1 == pytest.approx(before[name].f1, rel=1e-12), name


def test_a_mention_in_two_clusters_is_refused():
    with pytest.raises(ValueError, match="more than one cluster"):
        coreference_counts([["a", "b"], ["b", "c"]], [["a", "b"]])


def test_empty_clusterings_are_undefined_without_dividing_by_zero():
    counts = coreference_counts([], [])
    # the reference scorers' arithmetic still gives 0 (coval f1) ...
    assert all(counts[name].f1 == 0.0 for name in METRICS)
    assert conll_f1(counts) == 0.0
    # ... but the JSON form says undefined: nothing was there to score
    assert all(
        counts[name].prf() == {"precision": None, "recall": None, "f1": None} for name in METRICS
    )
