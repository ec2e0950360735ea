"""Undefined scores (metrics/undefined.py): nothing to score on either side is None with a
reason, never 0.0, and is left out of AVG, MAX-micro and MAX-macro; one empty side is a
defined 0."""

from __future__ import annotations

import pytest

from corefscore.metrics.undefined import NO_CLUSTER, NO_HIERARCHY, NO_LINK, reason
from corefscore.scoring.api import iaa, score_scico

from .builders import scico_topic

COREFERENCE = ("conll_f1", "muc_f1", "bcub_f1", "ceafe_f1", "lea_f1")
HIERARCHY = ("hierarchy_f1", "hierarchy_50_f1", "hierarchy_f1_raw", "path_ratio")


def singletons(topic_id, n=14):
    return scico_topic(topic_id, [[0, i, i, f"c{i}"] for i in range(n)])


def clustered(topic_id, split=False):
    """Two clusters of two and a relation; ``split``: the second cluster broken in two."""
    last = "d" if split else "b"
    return scico_topic(
        topic_id, [[0, 0, 0, "a"], [0, 2, 2, "a"], [0, 4, 4, "b"], [0, 6, 6, last]], [("a", "b")]
    )


@pytest.mark.parametrize("intervals", [True, False])  # the numpy path and the scalar one
def test_identical_singleton_annotations_are_undefined_not_zero(intervals):
    report = iaa([[singletons("t")], [singletons("t")]], scheme="scico", intervals=intervals)
    scores = report["topics"]["t"]
    for metric in COREFERENCE + HIERARCHY:
        assert scores[metric] == {"avg": None, "max": None, "pairs": {"1-2": None}}, metric
        assert report["overall"][metric]["avg"] is None
        assert report["overall"][metric]["max_micro"] is None
        assert report["overall"][metric]["max_macro"] is None
    # mention detection counts singletons: the two agree completely
    assert scores["mention_f1"]["max"] == 1.0
    assert reason("bcub_f1") == NO_CLUSTER
    assert reason("path_ratio") == reason("hierarchy_f1_raw") == NO_HIERARCHY


def test_with_singletons_kept_b3_and_ceafe_are_complete_agreement_and_muc_undefined():
    report = iaa(
        [[singletons("t")], [singletons("t")]],
        scheme="scico",
        keep_singletons=True,
        intervals=False,
    )
    scores = report["topics"]["t"]
    assert scores["bcub_f1"]["max"] == scores["ceafe_f1"]["max"] == scores["lea_f1"]["max"] == 1.0
    assert scores["muc_f1"]["max"] is None
    assert scores["conll_f1"]["max"] is None  # not the mean of two of its three parts
    assert reason("muc_f1", keep_singletons=True) == NO_LINK
    assert reason("conll_f1", keep_singletons=True) == NO_LINK


@pytest.mark.parametrize("intervals", [True, False])
def test_an_undefined_topic_is_left_out_of_every_average(intervals):
    first = [clustered("a"), singletons("b")]
    second = [clustered("a", split=True), singletons("b")]
    report = iaa([first, second], scheme="scico", intervals=intervals)
    alone = iaa([first[:1], second[:1]], scheme="scico", intervals=intervals)
    for metric in COREFERENCE + HIERARCHY:
        for figure in ("avg", "max_micro", "max_macro"):
            # topic b adds nothing and does not pull MAX-macro down
            assert report["overall"][metric][figure] == alone["overall"][metric][figure]
        assert report["overall"][metric]["max_macro"] not in (None, 0.0)


def test_one_empty_side_is_a_defined_zero():
    report = iaa([[clustered("a")], [singletons("a", 7)]], scheme="scico", intervals=False)
    scores = report["topics"]["a"]
    for metric in COREFERENCE + ("hierarchy_f1", "hierarchy_50_f1", "hierarchy_f1_raw"):
        assert scores[metric]["max"] == 0.0, metric


def test_against_gold_an_undefined_figure_is_none_with_a_defined_one_beside_it():
    gold = [singletons("t"), clustered("u")]
    result = score_scico([singletons("t")], [singletons("t")])
    assert result["muc"] == {"precision": None, "recall": None, "f1": None}
    assert result["conll_f1"] is None
    assert result["hierarchy"]["f1"] is None
    assert result["path_ratio"] == {"micro": None, "macro": None}
    assert result["mention_detection"]["exact"]["f1"] == 1.0
    both = score_scico(gold, [singletons("t"), clustered("u")])
    # the undefined topic leaves the macro path ratio of the defined one alone (not halved)
    assert both["path_ratio"]["macro"] == both["path_ratio"]["micro"] == 1.0
    assert both["conll_f1"] == 1.0
