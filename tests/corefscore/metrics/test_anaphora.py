"""ChEMU relation scoring: exact and relaxed (maximum matching), COREFERENCE transitivity."""

from __future__ import annotations

from hypothesis import given, settings

from corefscore.metrics.anaphora import (
    anaphor_counts,
    expand_coreference,
    overall,
    relation_counts,
)

from .reference_scorers import chemu_expand, chemu_relation_counts
from .strategies import link_sets

SETTINGS = settings(max_examples=300, deadline=None)


def m(start, end, *more):
    spans = ((start, end),) + tuple(zip(more[::2], more[1::2], strict=True))
    return (0, spans)


@SETTINGS
@given(key=link_sets(), response=link_sets())
def test_exact_and_relaxed_counts_equal_the_reference_bipartite_matching(key, response):
    for relaxed in (False, True):
        ours = relation_counts(key, response, relaxed=relaxed)
        theirs = chemu_relation_counts(key, response, relaxed)
        for kind, (tp, n_key, n_response) in theirs.items():
            assert (ours[kind].r_num, ours[kind].r_den, ours[kind].p_den) == (
                tp,
                n_key,
                n_response,
            ), kind
        for kind, counts in ours.items():
            if kind not in theirs:
                assert (counts.r_den, counts.p_den) == (0, 0)


@SETTINGS
@given(links=link_sets(size=14))
def test_coreference_expansion_equals_networkx_transitive_closure(links):
    assert expand_coreference(links) == chemu_expand(links)


@SETTINGS
@given(key=link_sets(), response=link_sets())
def test_relation_f1_is_symmetric(key, response):
    for relaxed in (False, True):
        forward = overall(relation_counts(key, response, relaxed=relaxed)).f1
        backward = overall(relation_counts(response, key, relaxed=relaxed)).f1
        assert forward == backward


def test_chain_against_collapsed_links_follows_the_overview_example():
    # ChEMU 2021 section 5.2: gold T1->T2, T2->T3 expands to 3 links; prediction T1->T3, T2->T3
    t1, t2, t3 = m(20, 21), m(10, 11), m(0, 1)
    gold = [("COREFERENCE", t1, t2), ("COREFERENCE", t2, t3)]
    predicted = [("COREFERENCE", t1, t3), ("COREFERENCE", t2, t3)]
    counts = relation_counts(gold, predicted)["COREFERENCE"]
    assert (counts.r_num, counts.r_den, counts.p_den) == (2, 3, 2)


def test_other_types_are_not_expanded():
    a, b, c = m(0, 0), m(2, 2), m(4, 4)
    links = [("WORK_UP", a, b), ("WORK_UP", b, c)]
    assert expand_coreference(links) == set(links)


def test_repeated_relations_count_once():
    a, b = m(5, 6), m(0, 1)
    counts = relation_counts([("CONTAINED", a, b)] * 3, [("CONTAINED", a, b)])["CONTAINED"]
    assert (counts.r_num, counts.r_den, counts.p_den) == (1, 1, 1)


def test_anaphor_detection_counts_distinct_anaphors_of_any_type():
    a, b, c = m(5, 6), m(0, 1), m(2, 3)
    key = [("CONTAINED", a, b), ("WORK_UP", a, c)]
    response = [("TRANSFORMED", m(6, 7), b)]
    exact, relaxed = anaphor_counts(key, response), anaphor_counts(key, response, relaxed=True)
    assert (exact.r_num, exact.r_den, exact.p_den) == (0, 1, 1)
    assert relaxed.r_num == 1
