"""score_scico and score_chemu: JSON shape, topic matching, and the reference scorers' numbers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.scoring.api import TopicMismatchError, score_chemu, score_scico
from tests.corefscore.metrics.reference_scorers import (
    coval_evaluate,
    coval_f1,
    prerelease_raw_edge_counts,
    scico_hypernym_50_counts,
    scico_hypernym_counts,
    scico_path_averages,
    scico_path_topic,
)
from tests.corefscore.metrics.strategies import scico_topic_pairs

from .builders import chemu_topic, scico_topic

PRF = {"precision", "recall", "f1"}
TYPES = ["COREFERENCE", "TRANSFORMED", "REACTION_ASSOCIATED", "WORK_UP", "CONTAINED"]


def micro(counts):
    """SciCo's compute_micro_average_scores over (p_num, p_den, r_num, r_den) per topic."""
    p_num, p_den, r_num, r_den = (sum(c[i] for c in counts) for i in range(4))
    recall = r_num / r_den if r_den != 0 else 0
    precision = p_num / p_den if p_den != 0 else 0
    f1 = 2 * recall * precision / (recall + precision) if (recall + precision) != 0 else 0
    return {"precision": precision, "recall": recall, "f1": f1}


def defined(expected, denominators):
    """The reference figure where either side counted something, else undefined: None where
    the reference scorers write 0 for 0/0 on both sides (metrics/undefined.py)."""
    if not any(denominators):
        return dict.fromkeys(expected, None) if isinstance(expected, dict) else None
    return expected


def micro_or_undefined(counts):
    """:func:`micro`, undefined where no topic counted anything on either side."""
    return defined(micro(counts), (sum(c[1] for c in counts), sum(c[3] for c in counts)))


def coval_order(topic: dict) -> list[list[int]]:
    """Clusters in the order coval's reader opens them: at the end token of a first mention."""
    clusters: dict = {}
    for index, (_, _, _end, cluster) in sorted(
        enumerate(topic["mentions"]), key=lambda m: (m[1][0], m[1][2], m[0])
    ):
        clusters.setdefault(cluster, []).append(index)
    return [sorted(members) for members in clusters.values()]


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(scico_topic_pairs(), min_size=1, max_size=4))
def test_score_scico_reproduces_coval_and_scico_digit_for_digit(pairs):
    gold = [scico_topic(i, p[0]["mentions"], p[0]["relations"]) for i, p in enumerate(pairs)]
    system = [scico_topic(i, p[1]["mentions"], p[1]["relations"]) for i, p in enumerate(pairs)]
    result = score_scico(gold, system)

    coval = coval_evaluate(
        [(coval_order(g), coval_order(s)) for g, s in pairs], keep_singletons=False
    )
    for name in ("mentions", "muc", "bcub", "ceafe", "lea"):
        p_num, p_den, r_num, r_den = coval[name]
        expected = {
            "precision": 0 if p_num == 0 else p_num / float(p_den),
            "recall": 0 if r_num == 0 else r_num / float(r_den),
            "f1": coval_f1(p_num, p_den, r_num, r_den),
        }
        assert result[name] == defined(expected, (p_den, r_den)), name
    conll = 0
    for name in ("muc", "bcub", "ceafe"):
        conll += coval_f1(*coval[name])
    muc_dens = (coval["muc"][1], coval["muc"][3])
    assert result["conll_f1"] == defined(conll / 3, muc_dens)
    # the default hierarchy F1 is SciCo's released eval/hypernym.py
    for field, reference in (
        ("hierarchy", scico_hypernym_counts),
        ("hierarchy_50", scico_hypernym_50_counts),
        # the raw edges count (SciCo's pre-release code, not SciCo's figure), always beside it
        ("hierarchy_f1_raw", prerelease_raw_edge_counts),
    ):
        assert result[field] == micro_or_undefined([reference(g, s) for g, s in pairs]), field
    # SciCo's path ratio over the topics where it is defined: those with a hierarchy
    # relation on either side (a topic without any is left out, as every hierarchy figure)
    with_hierarchy = [(g, s) for g, s in pairs if g["relations"] or s["relations"]]
    path_topics = [counts for g, s in with_hierarchy if (counts := scico_path_topic(g, s))[1]]
    if path_topics:
        path_micro, path_macro = scico_path_averages(path_topics)
        assert result["path_ratio"] == {"micro": path_micro, "macro": path_macro}
    else:
        assert result["path_ratio"] == {"micro": None, "macro": None}
    assert result["mention_detection"]["exact"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0}


def test_score_scico_returns_exactly_the_documented_keys():
    topic = scico_topic(7, [[0, 0, 1, "a"], [0, 3, 3, "a"], [0, 5, 6, "b"]], [("a", "b")])
    result = score_scico([topic], [topic])
    assert set(result) == {
        "mentions",
        "mention_detection",
        "muc",
        "bcub",
        "ceafe",
        "lea",
        "conll_f1",
        "hierarchy",
        "hierarchy_50",
        "hierarchy_f1_raw",
        "path_ratio",
        "f1_ci",
    }
    assert set(result["mention_detection"]) == {"exact", "relaxed"}
    assert all(
        set(result[k]) == PRF
        for k in ("mentions", "muc", "bcub", "ceafe", "lea", "hierarchy", "hierarchy_50")
    )
    assert set(result["path_ratio"]) == {"micro", "macro"}
    assert all(type(v) is float for v in result["muc"].values())


def test_identical_files_score_one_everywhere():
    topic = scico_topic(
        1, [[0, 0, 1, "a"], [0, 3, 3, "a"], [0, 5, 6, "b"], [0, 8, 8, "b"]], [("a", "b")]
    )
    result = score_scico([topic], [topic])
    assert result["conll_f1"] == 1.0
    assert (
        result["hierarchy"]["f1"]
        == result["hierarchy_50"]["f1"]
        == result["path_ratio"]["micro"]
        == 1.0
    )


def test_keep_singletons_changes_the_coreference_scores():
    gold = scico_topic(1, [[0, 0, 0, "a"], [0, 2, 2, "a"], [0, 4, 4, "b"]])
    system = scico_topic(1, [[0, 0, 0, "x"], [0, 2, 2, "x"], [0, 4, 4, "y"]])
    assert score_scico([gold], [system])["bcub"]["recall"] == 1.0
    assert score_scico([gold], [system], keep_singletons=True)["mentions"]["recall"] == 1.0
    assert score_scico([gold], [system])["mentions"]["recall"] == 1.0
    assert score_scico([gold], [system])["mention_detection"]["exact"]["recall"] == 1.0


@settings(max_examples=25, deadline=None)
@given(pairs=st.lists(scico_topic_pairs(), min_size=2, max_size=5), seed=st.integers(0, 1000))
def test_permuting_the_topics_of_either_file_changes_nothing(pairs, seed):
    gold = [scico_topic(i, p[0]["mentions"], p[0]["relations"]) for i, p in enumerate(pairs)]
    system = [scico_topic(i, p[1]["mentions"], p[1]["relations"]) for i, p in enumerate(pairs)]
    shuffled = random.Random(seed).sample(system, len(system))
    assert score_scico(gold, shuffled) == score_scico(gold, system)
    reordered = score_scico(random.Random(seed + 1).sample(gold, len(gold)), system)
    expected = score_scico(gold, system)
    assert reordered.keys() == expected.keys()
    assert reordered["muc"] == expected["muc"]  # integer counts: any order gives the same digits
    if expected["conll_f1"] is None:
        assert reordered["conll_f1"] is None
    else:
        assert reordered["conll_f1"] == pytest.approx(expected["conll_f1"], rel=1e-12)


def test_a_topic_on_one_side_only_is_an_error_naming_it():
    a, b = scico_topic("alpha", [[0, 0, 0, 1]]), scico_topic("beta", [[0, 0, 0, 1]])
    with pytest.raises(TopicMismatchError, match="missing from the system: beta"):
        score_scico([a, b], [a])
    with pytest.raises(TopicMismatchError, match="missing from the gold: beta"):
        score_scico([a], [a, b])
    with pytest.raises(TopicMismatchError, match="alpha appears twice in the gold"):
        score_scico([a, a], [a])


def test_score_chemu_returns_exactly_the_documented_keys_and_per_type_scores():
    links = [("COREFERENCE", ((10, 11),), ((0, 1),)), ("WORK_UP", ((20, 22),), ((10, 11),))]
    gold = chemu_topic("0001", links)
    system = chemu_topic("0001", links[:1] + [("WORK_UP", ((21, 23),), ((10, 11),))])
    result = score_chemu([gold], [system])
    assert set(result) == {"exact", "relaxed", "anaphors", "mention_detection", "f1_ci"}
    for kind in ("exact", "relaxed"):
        assert set(result[kind]) == {"overall", "per_type"}
        assert list(result[kind]["per_type"]) == TYPES
    assert result["exact"]["per_type"]["WORK_UP"]["f1"] == 0.0
    assert result["relaxed"]["per_type"]["WORK_UP"]["f1"] == 1.0
    assert result["exact"]["overall"] == {"precision": 0.5, "recall": 0.5, "f1": 0.5}
    assert set(result["anaphors"]) == {"exact", "relaxed"}


@settings(max_examples=30, deadline=None)
@given(pairs=st.lists(scico_topic_pairs(repeats=True), min_size=1, max_size=4))
def test_raw_edge_counting_reproduces_scicos_prerelease_script_only(pairs):
    gold = [scico_topic(i, p[0]["mentions"], p[0]["relations"]) for i, p in enumerate(pairs)]
    system = [scico_topic(i, p[1]["mentions"], p[1]["relations"]) for i, p in enumerate(pairs)]
    result = score_scico(gold, system, hierarchy_count="raw")
    assert result["hierarchy"] == micro_or_undefined(
        [prerelease_raw_edge_counts(g, s) for g, s in pairs]
    )
    default = score_scico(gold, system)
    assert default["hierarchy"] == micro_or_undefined(
        [scico_hypernym_counts(g, s) for g, s in pairs]
    )


def test_model_scores_get_seeded_intervals_that_collapse_on_a_single_topic():
    gold = scico_topic(7, [[0, 0, 1, "a"], [0, 3, 3, "a"], [0, 5, 6, "b"]], [("a", "b")])
    system = scico_topic(7, [[0, 0, 1, "a"], [0, 3, 3, "b"], [0, 5, 6, "b"]], [("a", "b")])
    result = score_scico([gold], [system])
    # every resample of one topic is that topic: the interval is the score itself
    assert result["f1_ci"]["muc"] == [result["muc"]["f1"]] * 2
    assert result["f1_ci"]["conll_f1"] == [pytest.approx(result["conll_f1"])] * 2
    assert result["f1_ci"]["hierarchy_f1_raw"] == [result["hierarchy_f1_raw"]["f1"]] * 2
    other_gold = scico_topic(8, [[0, 0, 1, "a"], [0, 3, 3, "a"]])
    other_system = scico_topic(8, [[0, 0, 1, "a"], [0, 3, 3, "b"]])
    several = score_scico([gold, other_gold], [system, other_system])
    assert several == score_scico([gold, other_gold], [system, other_system])  # seeded
    low, high = several["f1_ci"]["bcub"]
    assert low <= several["bcub"]["f1"] <= high


def test_chemu_scores_get_intervals_too():
    links = [("COREFERENCE", ((0, 0),), ((4, 5),))]
    result = score_chemu([chemu_topic(1, links)], [chemu_topic(1, links)])
    assert result["f1_ci"]["relation_exact"] == [1.0, 1.0]
    assert result["f1_ci"]["anaphor_relaxed"] == [1.0, 1.0]
