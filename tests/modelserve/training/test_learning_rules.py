"""The pure rules of learning in the loop (modelserve/training/learning.py)."""

from __future__ import annotations

import pytest

from modelserve.training.learning import (
    Submitted,
    VersionView,
    eligibility,
    held_out,
    is_not_worse,
    learner_for,
    mention_epochs_within,
    serving_version,
    teaching_annotation,
    text_key,
    with_base,
)


def test_a_topic_stays_on_its_side_of_the_split_whatever_other_topics_come_in():
    first = {key: held_out(key, percent=20) for key in map(str, range(100))}
    again = {key: held_out(key, percent=20) for key in map(str, range(1000))}
    assert all(again[key] == side for key, side in first.items())
    assert 120 <= sum(again.values()) <= 280  # about a fifth of a thousand


def test_the_split_moves_with_the_seed():
    keys = list(map(str, range(200)))
    assert [held_out(k, percent=20) for k in keys] != [
        held_out(k, percent=20, seed=1) for k in keys
    ]


def test_an_adjudication_replaces_the_annotators_versions_and_the_newest_one_wins():
    versions = [
        Submitted(1, 10, adjudication=False, submitted_order=0),
        Submitted(2, 11, adjudication=True, submitted_order=1),
        Submitted(3, 12, adjudication=False, submitted_order=2),
        Submitted(4, 13, adjudication=True, submitted_order=3),
    ]
    assert teaching_annotation(versions, topic_key="t") == 4


def test_without_an_adjudication_each_annotators_version_teaches_about_one_topic_in_n():
    versions = [Submitted(id, id, adjudication=False, submitted_order=id) for id in (1, 2, 3)]
    drawn = [teaching_annotation(versions, topic_key=str(k)) for k in range(3000)]
    for id in (1, 2, 3):
        assert 850 <= drawn.count(id) <= 1150
    # the draw of a topic does not depend on the order its versions came in
    assert teaching_annotation(versions[::-1], topic_key="7") == drawn[7]


def test_the_newest_eligible_version_serves_and_none_eligible_is_the_base_model():
    versions = [VersionView(1, 1, True), VersionView(2, 2, True), VersionView(3, 3, False)]
    assert serving_version(versions) == 2
    assert serving_version([*versions, VersionView(4, 4, True)]) == 4
    assert serving_version([]) is None
    assert serving_version([VersionView(1, 1, False)]) is None  # the base model serves


def test_a_pinned_version_serves_whatever_is_newer_and_a_gone_one_is_ignored():
    versions = [VersionView(1, 1, True), VersionView(2, 2, True), VersionView(3, 3, False)]
    assert serving_version(versions, pinned=1) == 1
    assert serving_version(versions, pinned=3) == 3  # an admin may choose a worse one
    assert serving_version(versions, pinned=99) == 2


def test_the_base_model_chosen_by_an_admin_serves_over_every_version():
    versions = [VersionView(1, 1, True), VersionView(2, 2, True)]
    assert serving_version(versions, base=True) is None


def test_not_worse_needs_both_figures():
    assert is_not_worse(0.5, 0.5)
    assert not is_not_worse(0.49, 0.5)
    # nothing held out shows nothing: not "not worse" (a version took over untested so)
    assert not is_not_worse(None, 0.5)
    assert not is_not_worse(0.1, None)


def judged(**overrides):
    fields = {
        "holdout_topics": 12,
        "min_holdout": 10,
        "degenerate": "",
        "score": 0.6,
        "previous_score": 0.55,
        "compared_with": "the base model (minilm)",
    }
    return eligibility(**{**fields, **overrides})


def test_a_version_not_worse_than_what_serves_on_enough_held_out_topics_is_eligible():
    verdict = judged()
    assert verdict.eligible
    assert verdict.reason == (
        "held-out 0.600, not below the base model (minilm)'s 0.550 on the same 12 held-out "
        "topics: eligible"
    )
    assert judged(score=0.55).eligible  # as good is not worse


def test_a_version_on_too_few_held_out_topics_is_not_eligible_whatever_it_scores():
    verdict = judged(holdout_topics=0, score=None, previous_score=None)
    assert not verdict.eligible
    assert verdict.reason == "0 held-out topics, not eligible (at least 10 needed)"
    assert not judged(holdout_topics=9, score=1.0, previous_score=0.1).eligible
    assert judged(holdout_topics=1, min_holdout=1).eligible
    both = judged(holdout_topics=1, degenerate="every mention alone")
    assert both.reason == (
        "1 held-out topic, not eligible (at least 10 needed); every mention alone there: "
        "never eligible"
    )


def test_a_version_worse_than_what_serves_on_the_same_topics_is_not_eligible():
    verdict = judged(score=0.5, previous_score=0.55, compared_with="version 2")
    assert not verdict.eligible
    assert "below version 2's 0.550" in verdict.reason


def test_a_degenerate_version_is_never_eligible_even_if_it_scores_higher():
    verdict = judged(degenerate="every mention alone", score=0.9, previous_score=0.1)
    assert not verdict.eligible
    assert verdict.reason == "every mention alone on the held-out topics: never eligible"


def test_a_version_whose_comparison_could_not_be_scored_is_not_eligible():
    assert not judged(previous_score=None).eligible


def test_the_learner_follows_the_project():
    assert learner_for(anaphora=True, configured_backend="minilm") == "chemu"
    assert learner_for(anaphora=False, configured_backend="cross-encoder") == "cross-encoder"
    assert learner_for(anaphora=False, configured_backend="minilm") == "trained"


def test_a_retraining_from_a_base_counts_the_teams_topics_weight_times():
    assert with_base(["t1", "t2"], ["b1", "b2", "b3"], weight=2) == [
        "b1", "b2", "b3", "t1", "t2", "t1", "t2",
    ]  # fmt: skip
    assert with_base(["t1"], [], weight=1) == ["t1"]


def test_the_teams_weight_is_at_least_one():
    with pytest.raises(ValueError, match="at least 1"):
        with_base(["t1"], ["b1"], weight=0)


def test_a_topics_text_key_is_its_tokens_document_by_document():
    assert text_key([["a", "b"], ["c"]]) == text_key([["a", "b"], ["c"]])
    assert text_key([["a", "b"], ["c"]]) != text_key([["a"], ["b", "c"]])
    assert text_key([["a b"]]) != text_key([["a", "b"]])


def test_the_taggers_epochs_shrink_as_a_retraining_grows_and_never_pass_the_budget():
    # a small project trains the full epochs; the ChEMU base (~900 snippets) and more, fewer
    assert mention_epochs_within(14, 9000, 200) == 14
    assert mention_epochs_within(14, 9000, 900) == 10
    assert mention_epochs_within(14, 9000, 1100) == 8
    for documents in (1, 500, 643, 900, 1500, 4000):
        epochs = mention_epochs_within(14, 9000, documents)
        assert 1 <= epochs <= 14
        assert epochs * documents <= 9000
    # a project far beyond the budget still trains one epoch
    assert mention_epochs_within(14, 9000, 20000) == 1
    with pytest.raises(ValueError, match="must be at least 1"):
        mention_epochs_within(0, 9000, 100)
