"""The gate's scores: a metric with nothing to score on either side is undefined (None), not
0.0, and a threshold on it is not met; every hierarchy figure is "not scored" alike when
gold has no hierarchy."""

from corefscore.scoring.plain import from_topic
from onboarding.scores import passes, scores
from tests.corefscore.scoring.builders import scico_topic


def singletons():
    return from_topic(scico_topic("p", [[0, i, i, f"c{i}"] for i in range(5)]))


def test_an_attempt_with_nothing_to_score_is_undefined_and_does_not_pass():
    values = scores(singletons(), singletons(), ["scico"])

    for metric in ("conll_f1", "muc_f1", "bcub_f1", "ceafe_f1", "lea_f1"):
        assert values[metric] is None, metric  # it was 0.0
    assert values["mention_f1"] == 1.0
    assert passes(values, {"conll_f1": 0.75}) is False
    assert passes(values, {"mention_f1": 0.75}) is True


def test_every_hierarchy_figure_is_not_scored_alike_without_gold_edges():
    gold = from_topic(scico_topic("p", [[0, 0, 0, "a"], [0, 2, 2, "a"], [0, 4, 4, "b"]]))
    mine = from_topic(
        scico_topic("p", [[0, 0, 0, "a"], [0, 2, 2, "a"], [0, 4, 4, "b"]], [("a", "b")])
    )

    values = scores(gold, mine, ["scico"])

    for metric in ("hierarchy_f1", "hierarchy_50_f1", "hierarchy_f1_raw", "path_ratio"):
        assert values[metric] is None, metric
    assert values["conll_f1"] == 1.0
