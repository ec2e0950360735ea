"""A version's held-out judgement with real backends' predictions
(modelserve/training/learning_scores.py): the figures, and whether the suggestions are
degenerate, so that such a version never serves on its own (docs/learning.md)."""

from __future__ import annotations

from corefscore.formats import read
from modelserve.training.learning import eligibility, primary_score
from modelserve.training.learning_scores import held_out_judged
from tests.paths import SCICO_DEMO

GOLD = read("scico", SCICO_DEMO).topics


def test_a_model_that_proposes_every_mention_alone_is_judged_degenerate_and_never_eligible(
    tmp_path,
):
    judged = held_out_judged("singleton", {}, GOLD, models_dir=tmp_path)

    assert judged.degenerate == "every mention alone"
    verdict = eligibility(
        holdout_topics=len(GOLD),
        min_holdout=len(GOLD),
        degenerate=judged.degenerate,
        score=primary_score("trained", judged.scores),
        previous_score=0.0,  # even beside a base model that scores nothing
        compared_with="the base model (edit-distance)",
    )
    assert not verdict.eligible
    assert verdict.reason == "every mention alone on the held-out topics: never eligible"


def test_a_model_that_clusters_is_not_degenerate_and_is_scored(tmp_path):
    judged = held_out_judged("same-head-lemma", {}, GOLD, models_dir=tmp_path)

    assert judged.degenerate == ""
    assert judged.scores is not None
    assert 0 < judged.scores["conll_f1"] <= 1


def test_nothing_held_out_is_neither_scored_nor_judged(tmp_path):
    judged = held_out_judged("singleton", {}, [], models_dir=tmp_path)
    assert (judged.scores, judged.degenerate) == (None, "")
