"""iaa(): pairs of annotators per topic, AVG / MAX / MAX-micro / MAX-macro, and its CSV."""

from __future__ import annotations

import csv
import io

import pytest

from corefscore.scoring.api import iaa, iaa_csv_rows, write_iaa_csv

from .builders import chemu_topic, scico_topic

SCICO_METRICS = [
    "conll_f1",
    "muc_f1",
    "bcub_f1",
    "ceafe_f1",
    "lea_f1",
    "hierarchy_f1",
    "hierarchy_50_f1",
    "path_ratio",
    "hierarchy_f1_raw",
    "mention_f1",
    "mention_relaxed_f1",
]
CHEMU_METRICS = [
    "relation_exact_f1",
    "relation_relaxed_f1",
    "alpha_relations",
    "alpha_mentions",
    "mention_f1",
    "mention_relaxed_f1",
    "anaphor_f1",
    "anaphor_relaxed_f1",
    "alpha_mentions_coreference",
    "alpha_mentions_transformed",
    "alpha_mentions_reaction_associated",
    "alpha_mentions_work_up",
    "alpha_mentions_contained",
]

MENTIONS = [[0, 0, 1], [0, 3, 3], [0, 5, 6], [0, 8, 8], [0, 10, 12]]


def annotated(topic_id, clusters, relations=()):
    return scico_topic(
        topic_id, [m + [c] for m, c in zip(MENTIONS, clusters, strict=True)], relations
    )


@pytest.fixture
def three_annotators():
    first = [
        annotated("t1", "aabbc", [("a", "b")]),
        annotated("t2", "aaabb"),
        annotated("t3", "abcde"),
    ]
    second = [annotated("t1", "aabbb", [("a", "b")]), annotated("t2", "aaabb")]
    third = [annotated("t1", "abbcc", [("b", "c")])]
    return [first, second, third]


def test_iaa_has_the_documented_shape_and_metrics(three_annotators):
    result = iaa(three_annotators, scheme="scico")
    assert set(result) == {"topics", "overall", "unscored_topics"}
    assert list(result["topics"]) == ["t1", "t2"]
    assert list(result["topics"]["t1"]) == SCICO_METRICS
    assert set(result["topics"]["t1"]["muc_f1"]) == {"avg", "max", "pairs"}
    assert list(result["topics"]["t1"]["muc_f1"]["pairs"]) == ["1-2", "1-3", "2-3"]
    assert list(result["topics"]["t2"]["muc_f1"]["pairs"]) == ["1-2"]
    assert list(result["overall"]) == SCICO_METRICS
    assert set(result["overall"]["conll_f1"]) == {
        "avg",
        "std",
        "max_micro",
        "max_macro",
        "avg_ci",
        "max_micro_ci",
        "max_macro_ci",
    }


def test_topics_with_fewer_than_two_annotations_are_listed_not_scored(three_annotators):
    assert iaa(three_annotators, scheme="scico")["unscored_topics"] == ["t3"]


def test_names_label_the_pairs(three_annotators):
    result = iaa(three_annotators, scheme="scico", names=["ann", "bo", "cy"])
    assert list(result["topics"]["t1"]["lea_f1"]["pairs"]) == ["ann-bo", "ann-cy", "bo-cy"]


def test_identical_annotations_agree_fully_and_max_macro_is_the_mean_of_topic_maxima(
    three_annotators,
):
    result = iaa(three_annotators, scheme="scico")
    assert result["topics"]["t2"]["conll_f1"]["max"] == 1.0  # annotators 1 and 2 agree on t2
    t1_max = result["topics"]["t1"]["muc_f1"]["max"]
    assert result["overall"]["muc_f1"]["max_macro"] == pytest.approx((t1_max + 1.0) / 2)


def test_agreement_does_not_depend_on_the_order_of_the_annotators(three_annotators):
    forward = iaa(three_annotators, scheme="scico")
    backward = iaa(three_annotators[::-1], scheme="scico")
    for metric in SCICO_METRICS:
        assert forward["overall"][metric]["avg"] == pytest.approx(
            backward["overall"][metric]["avg"], rel=1e-12
        )
        assert forward["topics"]["t1"][metric]["max"] == pytest.approx(
            backward["topics"]["t1"][metric]["max"]
        )


def test_chemu_agreement_has_relation_f1_and_alpha():
    links = [("COREFERENCE", ((10, 11),), ((0, 1),)), ("WORK_UP", ((20, 22),), ((10, 11),))]
    first = [chemu_topic("p1", links), chemu_topic("p2", links[:1])]
    second = [chemu_topic("p1", links[:1]), chemu_topic("p2", links[:1])]
    result = iaa([first, second], scheme="chemu")
    assert list(result["overall"]) == CHEMU_METRICS
    assert result["topics"]["p2"]["alpha_relations"]["pairs"]["1-2"] == 1.0
    assert result["topics"]["p1"]["relation_exact_f1"]["avg"] == pytest.approx(2 / 3)
    assert -1.0 <= result["overall"]["alpha_mentions"]["avg"] <= 1.0


def test_unknown_scheme_and_wrong_number_of_names_are_refused(three_annotators):
    with pytest.raises(ValueError, match="scheme"):
        iaa(three_annotators, scheme="brat")
    with pytest.raises(ValueError, match="names"):
        iaa(three_annotators, scheme="scico", names=["a"])


def test_csv_has_a_header_topic_rows_overall_rows_and_unscored_rows(three_annotators):
    result = iaa(three_annotators, scheme="scico")
    rows = iaa_csv_rows(result)
    assert rows[0] == [
        "scope",
        "topic",
        "metric",
        "avg",
        "max",
        "annotators",
        "std",
        "max_micro",
        "max_macro",
        "avg_ci_low",
        "avg_ci_high",
        "max_micro_ci_low",
        "max_micro_ci_high",
        "max_macro_ci_low",
        "max_macro_ci_high",
    ]
    scopes = [row[0] for row in rows[1:]]
    per_topic = ["topic"] * len(SCICO_METRICS)
    assert scopes == 2 * per_topic + ["overall"] * len(SCICO_METRICS) + ["unscored"]
    t1_conll = rows[1]
    assert t1_conll[:3] == ["topic", "t1", "conll_f1"]
    assert t1_conll[5] == "3"
    assert float(t1_conll[3]) == result["topics"]["t1"]["conll_f1"]["avg"]
    overall_conll = rows[1 + 2 * len(SCICO_METRICS)]
    assert overall_conll[2] == "conll_f1"
    assert overall_conll[4] == ""
    assert float(overall_conll[7]) == (result["overall"]["conll_f1"]["max_micro"])
    assert rows[-1][:2] == ["unscored", "t3"]


def test_written_csv_reads_back_with_dict_reader(three_annotators):
    stream = io.StringIO()
    write_iaa_csv(iaa(three_annotators, scheme="scico"), stream)
    records = list(csv.DictReader(io.StringIO(stream.getvalue())))
    assert {r["scope"] for r in records} == {"topic", "overall", "unscored"}
    assert all(r["annotators"] in ("2", "3") for r in records if r["scope"] == "topic")


def test_alpha_of_all_annotators_pools_topics_and_leaves_absent_annotators_missing():
    import krippendorff
    import numpy as np

    from corefscore.scoring.api import alpha_all_annotators

    a, b, c = ((10, 11),), ((0, 1),), ((20, 22),)
    p1 = [[("COREFERENCE", a, b)], [("COREFERENCE", a, b), ("WORK_UP", c, a)], [("WORK_UP", c, a)]]
    p2 = [[("CONTAINED", c, b)], [("CONTAINED", c, b)]]
    annotators = [
        [chemu_topic("p1", p1[0]), chemu_topic("p2", p2[0])],
        [chemu_topic("p1", p1[1]), chemu_topic("p2", p2[1])],
        [chemu_topic("p1", p1[2])],
    ]
    # units: p1 (a->b), (c->a); p2 (c->b). Codes: NONE 0, COREFERENCE 1, WORK_UP 2, CONTAINED 3.
    nan = np.nan
    expected = krippendorff.alpha(
        reliability_data=[[1, 0, 3], [1, 2, 3], [0, 2, nan]], level_of_measurement="nominal"
    )
    assert alpha_all_annotators(annotators)["alpha_relations"] == pytest.approx(expected, rel=1e-12)


def test_mention_f1_counts_mentions_with_singletons_and_its_relaxed_variant_overlaps():
    # the second annotator drops the singleton (10, 12) and re-bounds (5, 6) as (5, 7): coval's
    # rules leave the singleton out of CoNLL, but mention F1 sees both changes
    first = [scico_topic("t", [m + [c] for m, c in zip(MENTIONS, "aabbc", strict=True)])]
    second = [scico_topic("t", [[0, 0, 1, "a"], [0, 3, 3, "a"], [0, 5, 7, "b"], [0, 8, 8, "b"]])]
    overall = iaa([first, second], scheme="scico")["overall"]
    assert overall["mention_f1"]["avg"] == pytest.approx(2 * 3 / (5 + 4))
    assert overall["mention_relaxed_f1"]["avg"] == pytest.approx(2 * 4 / (5 + 4))
    assert overall["conll_f1"]["avg"] < 1.0


def test_anaphora_agreement_adds_mention_and_anaphor_f1():
    coref = "COREFERENCE"
    first = [chemu_topic("t", [(coref, ((0, 0),), ((4, 5),)), (coref, ((9, 9),), ((4, 5),))])]
    second = [chemu_topic("t", [(coref, ((0, 0),), ((4, 5),)), (coref, ((12, 12),), ((4, 5),))])]
    overall = iaa([first, second], scheme="chemu")["overall"]
    assert overall["anaphor_f1"]["avg"] == pytest.approx(0.5)
    assert overall["mention_f1"]["avg"] == pytest.approx(2 / 3)


def test_every_summed_metric_has_a_seeded_95_percent_interval_around_its_figures(
    three_annotators,
):
    first = iaa(three_annotators, scheme="scico")["overall"]
    again = iaa(three_annotators, scheme="scico")["overall"]
    assert first == again  # seeded: the same intervals on every view
    for metric in SCICO_METRICS:
        for figure in ("avg", "max_micro", "max_macro"):
            low, high = first[metric][f"{figure}_ci"]
            assert low <= high


def test_the_bootstrap_recomputes_each_figure_as_the_report_does():
    """With one 'resample' that draws every topic once, each interval collapses onto the
    report's own figure: the vector form of every metric adds up like its counts."""
    import numpy

    from corefscore.metrics.iaa import aggregate
    from corefscore.scoring import evaluate
    from corefscore.scoring.api import _iaa_topic, from_topic

    topics = {
        "t1": [annotated("t1", "aabbc", [("a", "b")]), annotated("t1", "abbcc", [("b", "c")])],
        "t2": [annotated("t2", "aaabb", [("a", "b")]), annotated("t2", "abcde")],
    }
    results = {
        topic: _iaa_topic([from_topic(t) for t in pair], "scico", None, False, "closure")
        for topic, pair in topics.items()
    }
    _, overall = aggregate(results, evaluate.IAA_METRICS["scico"], weights=numpy.ones((1, 2)))
    for metric, scores in overall.items():
        for figure in ("avg", "max_micro", "max_macro"):
            assert scores[f"{figure}_ci"] == [pytest.approx(scores[figure], abs=1e-12)] * 2, (
                metric,
                figure,
            )


def test_alpha_gets_no_interval():
    coref = "COREFERENCE"
    first = [chemu_topic("t", [(coref, ((0, 0),), ((4, 5),))])]
    overall = iaa([first, first], scheme="chemu")["overall"]
    assert overall["alpha_relations"]["avg_ci"] is None
    assert overall["relation_exact_f1"]["avg_ci"] == [1.0, 1.0]


def test_the_csv_carries_the_intervals_of_the_overall_rows(three_annotators):
    result = iaa(three_annotators, scheme="scico")
    rows = list(csv.DictReader(io.StringIO(_csv_text(result))))
    conll = next(r for r in rows if r["scope"] == "overall" and r["metric"] == "conll_f1")
    expected = result["overall"]["conll_f1"]
    assert [float(conll["avg_ci_low"]), float(conll["avg_ci_high"])] == expected["avg_ci"]
    assert float(conll["max_macro_ci_high"]) == expected["max_macro_ci"][1]
    assert next(r for r in rows if r["scope"] == "topic")["avg_ci_low"] == ""


def _csv_text(result):
    stream = io.StringIO()
    write_iaa_csv(result, stream)
    return stream.getvalue()


def test_mention_alpha_per_type_counts_the_mentions_of_that_link_type_only():
    """The ChEMU overview gives mention alpha per type (0.89 for coreference mentions): a
    mention's type is that of a link it is in. Here both annotators mark the same mentions,
    so the plain mention alpha is 1, but they disagree on which are coreference mentions."""
    import krippendorff

    a, b, c, d = ((0, 1),), ((3, 4),), ((6, 6),), ((8, 9),)
    first = [
        chemu_topic("p", [("COREFERENCE", b, a), ("WORK_UP", d, c)], length=12),
    ]
    second = [
        chemu_topic("p", [("COREFERENCE", d, c), ("WORK_UP", b, a)], length=12),
    ]
    result = iaa([first, second], scheme="chemu")
    overall = result["overall"]
    assert overall["alpha_mentions"]["avg"] == 1.0
    # tokens 0-11; coreference mentions: first a, b (0, 1, 3, 4), second c, d (6, 8, 9)
    first_row = [1 if t in (0, 1, 3, 4) else 0 for t in range(12)]
    second_row = [1 if t in (6, 8, 9) else 0 for t in range(12)]
    expected = krippendorff.alpha(
        reliability_data=[first_row, second_row], level_of_measurement="nominal"
    )
    assert overall["alpha_mentions_coreference"]["avg"] == pytest.approx(expected)
    assert expected < 0
    # no TRANSFORMED mention on either side: every token "outside" on both, full agreement
    # (alpha.py's convention for data with one value throughout)
    assert overall["alpha_mentions_transformed"]["avg"] == 1.0
