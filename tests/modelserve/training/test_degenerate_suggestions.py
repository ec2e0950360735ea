"""Degenerate held-out suggestions (modelserve/training/degenerate.py): one class for every
pair of mentions, where the gold has more than one, never serves on its own."""

from __future__ import annotations

from corefscore.corpus import DocumentData, LinkData, MentionData, TopicData
from modelserve.training.degenerate import degenerate


def topic(clusters: list[str | None], relations=(), links=()) -> TopicData:
    return TopicData(
        external_id="t",
        documents=[DocumentData("d", ["w"] * 20)],
        mentions=[MentionData(0, ((i, i),), c) for i, c in enumerate(clusters)],
        relations=list(relations),
        links=list(links),
    )


GOLD = [topic(["a", "a", "b", "c"], relations=[("b", "c")])]


def test_every_mention_alone_is_degenerate():
    alone = [topic(["0", "1", "2", "3"])]
    assert degenerate(GOLD, alone, links=False) == "every mention alone"
    assert degenerate(GOLD, [topic([None, None, None, None])], links=False) == (
        "every mention alone"
    )


def test_every_mention_in_one_cluster_is_degenerate():
    assert degenerate(GOLD, [topic(["0"] * 4)], links=False) == "every mention in one cluster"


def test_a_prediction_with_two_kinds_of_pair_is_not_degenerate():
    assert degenerate(GOLD, [topic(["0", "0", "1", "2"])], links=False) == ""
    # over the held-out topics together: a topic of singletons beside a clustered one is fine
    assert (
        degenerate(
            GOLD * 2, [topic(["0", "1", "2", "3"]), topic(["0", "0", "1", "2"])], links=False
        )
        == ""
    )


def test_singletons_are_not_degenerate_where_the_gold_has_only_singletons():
    gold = [topic(["a", "b", "c"])]
    assert degenerate(gold, [topic(["0", "1", "2"])], links=False) == ""


def test_no_link_on_any_held_out_snippet_is_degenerate():
    gold = [topic([None] * 3, links=[LinkData("COREFERENCE", 2, 0)])]
    assert degenerate(gold, [topic([None] * 3)], links=True) == "every mention alone (no link)"
    linked = [topic([None] * 3, links=[LinkData("COREFERENCE", 1, 0)])]
    assert degenerate(gold, linked, links=True) == ""
