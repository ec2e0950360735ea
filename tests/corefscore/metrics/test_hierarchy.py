"""Hierarchy F1, F1-50% and path ratio: identical to the SciCo repository's released scorers
(``reference_scorers.py`` ports them; the raw edges count to SciCo's pre-release code)."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.metrics.hierarchy import (
    ClusterGraph,
    hierarchy_50_counts,
    hierarchy_counts,
    transitive_closure,
)
from corefscore.metrics.path_ratio import (
    path_ratio_counts,
    path_ratio_macro,
    path_ratio_micro,
)

from .reference_scorers import (
    ScicoHypernymScore,
    prerelease_raw_edge_counts,
    scico_hypernym_50_counts,
    scico_hypernym_counts,
    scico_path_averages,
    scico_path_topic,
)
from .strategies import chain_heavy_topic_pairs, scico_topic_pairs

SETTINGS = settings(max_examples=250, deadline=None)


def graph(topic: dict) -> ClusterGraph:
    """The SciCo dict as our ClusterGraph: mention i is the key ``i``."""
    return ClusterGraph(
        {i: str(mention[-1]) for i, mention in enumerate(topic["mentions"])},
        [(str(a), str(b)) for a, b in topic["relations"]],
    )


def as_tuple(counts) -> tuple:
    return (counts.p_num, counts.p_den, counts.r_num, counts.r_den)


@SETTINGS
@given(pair=scico_topic_pairs(repeats=True))
def test_raw_edge_counting_reproduces_scicos_prerelease_code_only(pair):
    gold, system = pair
    assert as_tuple(
        hierarchy_counts(graph(gold), graph(system), counted="raw")
    ) == prerelease_raw_edge_counts(gold, system)


@SETTINGS
@given(pair=scico_topic_pairs(repeats=True))
def test_the_default_count_is_scicos_released_hypernym_py(pair):
    # repeats included: the released code counts a repeated relation twice, and so do we
    gold, system = pair
    expected = scico_hypernym_counts(gold, system)
    assert as_tuple(hierarchy_counts(graph(gold), graph(system))) == expected


@SETTINGS
@given(pair=chain_heavy_topic_pairs())
def test_every_scico_named_figure_equals_scicos_released_code_on_chains(pair):
    """Hierarchy F1 (micro, as HypernymScore computes it), F1-50% and the path ratio on
    deep chains, where the raw count and SciCo's part most."""
    gold, system = pair
    released = ScicoHypernymScore([{**gold, "id": 1}], [{**system, "id": 1}])
    ours = hierarchy_counts(graph(gold), graph(system))
    assert (ours.recall, ours.precision, ours.f1) == (
        released.micro_recall,
        released.micro_precision,
        released.micro_f1,
    )
    assert as_tuple(hierarchy_50_counts(graph(gold), graph(system))) == scico_hypernym_50_counts(
        gold, system
    )
    assert path_ratio_counts(graph(gold), graph(system)) == scico_path_topic(gold, system)


def test_a_chain_with_one_edge_missing_scores_as_scico_six_tenths_recall():
    """A->B->C->D->E against the same chain without D->E: SciCo's released code recalls the
    6 of the 10 closed relations that do not end in E; the raw edges count gives 3/4."""
    names = "ABCDE"
    mentions = [[0, i, i, name] for i, name in enumerate(names)]
    gold = {"mentions": mentions, "relations": [[a, b] for a, b in pairwise(names)]}
    system = {"mentions": mentions, "relations": [["A", "B"], ["B", "C"], ["C", "D"]]}
    released = ScicoHypernymScore([{**gold, "id": 1}], [{**system, "id": 1}])
    assert (released.recall_num, released.recall_denominator) == ([6], [10])
    assert (released.precision_num, released.precision_denominator) == ([6], [6])
    closure = hierarchy_counts(graph(gold), graph(system))
    assert (closure.r_num, closure.r_den, closure.p_num, closure.p_den) == (6, 10, 6, 6)
    assert closure.recall == released.micro_recall
    assert closure.f1 == released.micro_f1
    raw = hierarchy_counts(graph(gold), graph(system), counted="raw")
    assert (raw.r_num, raw.r_den) == (3, 4)
    assert as_tuple(raw) == prerelease_raw_edge_counts(gold, system)


def test_a_repeated_relation_counts_twice_as_in_scicos_released_code():
    mentions = [[0, 0, 0, 0], [0, 1, 1, 1], [0, 2, 2, 2]]
    gold = {"mentions": mentions, "relations": [[0, 1], [0, 1], [1, 2]]}
    system = {"mentions": mentions, "relations": [[1, 2]]}
    # gold counts (0,1) twice, (1,2), (0,2): 4 relations, the one system relation recalls one
    assert scico_hypernym_counts(gold, system) == (1, 1, 1, 4)
    assert as_tuple(hierarchy_counts(graph(gold), graph(system))) == (1, 1, 1, 4)


@SETTINGS
@given(pair=scico_topic_pairs(repeats=True))
def test_fifty_percent_score_reproduces_scicos_hypernym_50(pair):
    gold, system = pair
    assert as_tuple(hierarchy_50_counts(graph(gold), graph(system))) == scico_hypernym_50_counts(
        gold, system
    )


@SETTINGS
@given(pair=scico_topic_pairs(mentions=12, clusters=7))
def test_path_ratio_numerator_and_denominator_equal_scicos_loop_to_the_last_digit(pair):
    gold, system = pair
    assert path_ratio_counts(graph(gold), graph(system)) == scico_path_topic(gold, system)


@settings(max_examples=60, deadline=None)
@given(pairs=st.lists(scico_topic_pairs(), min_size=1, max_size=5))
def test_path_ratio_micro_and_macro_equal_scicos_averages(pairs):
    ours = [path_ratio_counts(graph(g), graph(s)) for g, s in pairs]
    micro, macro = scico_path_averages([scico_path_topic(g, s) for g, s in pairs])
    assert path_ratio_micro(ours) == micro
    assert path_ratio_macro(ours) == macro


@SETTINGS
@given(pair=scico_topic_pairs())
def test_hierarchy_f1_and_path_ratio_are_symmetric(pair):
    gold, system = graph(pair[0]), graph(pair[1])
    assert hierarchy_counts(gold, system).f1 == pytest.approx(
        hierarchy_counts(system, gold).f1, rel=1e-12
    )
    assert hierarchy_50_counts(gold, system).f1 == pytest.approx(
        hierarchy_50_counts(system, gold).f1, rel=1e-12
    )
    forward, backward = path_ratio_counts(gold, system), path_ratio_counts(system, gold)
    assert forward[1] == backward[1]
    assert forward[0] == pytest.approx(backward[0], rel=1e-12)


@SETTINGS
@given(pair=scico_topic_pairs())
def test_identical_hierarchies_score_one(pair):
    side = graph(pair[0])
    assert path_ratio_counts(side, side)[0] == path_ratio_counts(side, side)[1]
    if side.relations:
        assert hierarchy_counts(side, side).f1 == 1.0
        assert hierarchy_50_counts(side, side).f1 == 1.0


@SETTINGS
@given(pair=scico_topic_pairs(), seed=st.integers(0, 10**6))
def test_renaming_clusters_changes_no_score(pair, seed):
    rng = random.Random(seed)
    gold, system = graph(pair[0]), graph(pair[1])
    names = {c: f"c{rng.random()}" for c in set(system.cluster_of.values())}
    renamed = ClusterGraph(
        {m: names[c] for m, c in system.cluster_of.items()},
        [(names[a], names[b]) for a, b in system.relations],
    )
    assert as_tuple(hierarchy_counts(gold, renamed)) == as_tuple(hierarchy_counts(gold, system))
    assert as_tuple(hierarchy_50_counts(gold, renamed)) == as_tuple(
        hierarchy_50_counts(gold, system)
    )
    assert path_ratio_counts(gold, renamed) == path_ratio_counts(gold, system)


def test_transitive_closure_adds_every_ancestor_descendant_pair_of_a_deep_chain():
    chain = [(str(i), str(i + 1)) for i in range(5)]
    closed = transitive_closure(chain)
    assert closed == {(str(i), str(j)) for i in range(6) for j in range(i + 1, 6)}


def test_transitive_closure_of_a_cycle_adds_no_self_pair():
    assert transitive_closure([("a", "b"), ("b", "a")]) == {("a", "b"), ("b", "a")}


def test_a_mention_missing_from_one_side_scores_zero_against_itself():
    key = ClusterGraph({"m1": "A", "m2": "A"})
    response = ClusterGraph({"m1": "X"})
    # pairs: (m1,m1) 1/1, (m1,m2) 0 vs 1 -> 0, (m2,m1) -> 0, (m2,m2) 0 vs 1 -> 0
    assert path_ratio_counts(key, response) == (1.0, 4)


def test_unknown_counting_mode_is_refused():
    with pytest.raises(ValueError, match="counted"):
        hierarchy_counts(ClusterGraph({}), ClusterGraph({}), counted="pairs")
