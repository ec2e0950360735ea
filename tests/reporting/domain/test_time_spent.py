"""Time per kind of decision, acceptance latency and its rubber-stamping flag, on synthetic
logs (pure: no database)."""

from datetime import UTC, datetime, timedelta

import pytest

from reporting.domain.time_spent import (
    KINDS,
    LoggedEvent,
    acceptance_latency,
    decision_kind,
    decision_times,
    iso_week,
    kind_summary,
)

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.mark.parametrize(
    ("name", "payload", "kind", "expected"),
    [
        ("assign", {"mention": 1, "cluster": 4}, "do", "assign"),
        ("assign", {"mention": 1, "cluster": None}, "do", "new_cluster"),
        ("assign", {"mention": 1}, "do", "new_cluster"),
        ("merge", {}, "do", "merge"),
        ("split", {}, "do", "split"),
        ("set_parent", {}, "do", "hierarchy_edge"),
        ("add_edge", {}, "do", "hierarchy_edge"),
        ("remove_edge", {}, "do", "hierarchy_edge"),
        ("add_link", {}, "do", "link"),
        ("accept_suggestion", {"suggestion": 3}, "do", "suggestion_accept"),
        ("reject_suggestion", {"suggestion": 3}, "do", "suggestion_reject"),
        ("validate", {}, "do", "validation"),
        ("fix_span", {}, "do", "mention"),
        ("rename", {}, "do", "other"),
        ("merge", {}, "undo", "undo_redo"),
    ],
)
def test_each_logged_operation_has_a_kind(name, payload, kind, expected):
    assert decision_kind(name, payload, kind) == expected
    assert expected in KINDS


def test_a_decision_takes_the_gap_since_the_previous_one_in_the_same_topic():
    events = [
        # ann, the topic's 1st session: assign at 0 (first: no time), merge 8 s later, link 5 s
        # later, then lunch (an hour: over the cap, excluded), then an assign 4 s after coming back
        LoggedEvent("ann", 1, at(0), "assign"),
        LoggedEvent("ann", 1, at(8), "merge"),
        LoggedEvent("ann", 1, at(13), "link"),
        LoggedEvent("ann", 1, at(3613), "assign"),
        LoggedEvent("ann", 1, at(3617), "assign"),
        # ann, the topic's second session, interleaved in time with the first: its own first event
        LoggedEvent("ann", 2, at(10), "merge"),
        LoggedEvent("ann", 2, at(12), "merge"),
        # bob in the same topic: never mixed with ann's events
        LoggedEvent("bob", 1, at(9), "assign"),
    ]
    times = decision_times(reversed(events), cap=300)  # the order of the log does not matter
    summary = kind_summary(times["ann"])

    assert times["ann"]["assign"] == [4.0]
    assert sorted(times["ann"]["merge"]) == [2.0, 8.0]
    assert times["ann"]["link"] == [5.0]
    assert summary["assign"].excluded == 2  # the first of the first session, the one after lunch
    assert summary["merge"].excluded == 1  # the first of the second session
    assert (summary["merge"].count, summary["merge"].median_seconds) == (2, 5.0)
    assert summary["merge"].total_seconds == 10.0
    assert summary["split"].count == 0
    assert summary["split"].median_seconds is None
    assert "assign" not in times["bob"]  # bob's only event is his first
    assert kind_summary(times["bob"])["assign"].excluded == 1


def test_a_gap_at_the_cap_counts_and_one_over_it_does_not():
    events = [
        LoggedEvent("ann", 1, at(0), "assign"),
        LoggedEvent("ann", 1, at(300), "assign"),
        LoggedEvent("ann", 1, at(600.5), "assign"),
    ]
    assert decision_times(events, cap=300)["ann"]["assign"] == [300.0]


def test_acceptance_latency_and_the_rubber_stamping_flag():
    shown = {1: at(0), 2: at(10), 3: at(20)}
    quick = acceptance_latency(shown, [(1, at(0.2)), (2, at(10.3)), (3, at(20.9)), (9, at(30))])
    assert (quick.accepted, quick.unseen) == (3, 1)  # suggestion 9 was never seen shown
    assert quick.median_seconds == 0.3
    assert quick.rubber_stamping

    careful = acceptance_latency(shown, [(1, at(2)), (2, at(10.4)), (3, at(24))])
    assert careful.median_seconds == 2.0
    assert not careful.rubber_stamping

    # exactly 500 ms is not under 500 ms
    assert not acceptance_latency({1: at(0)}, [(1, at(0.5))]).rubber_stamping
    nothing = acceptance_latency({}, [])
    assert nothing.median_seconds is None
    assert not nothing.rubber_stamping


def test_an_acceptance_logged_before_its_recorded_display_counts_as_zero():
    assert acceptance_latency({1: at(5)}, [(1, at(4))]).median_seconds == 0.0


def test_iso_week():
    assert iso_week(datetime(2026, 1, 1, tzinfo=UTC)) == "2026-W01"
    assert iso_week(datetime(2027, 1, 1, tzinfo=UTC)) == "2026-W53"
