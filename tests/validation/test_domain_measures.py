"""Validation measures, pure: kappa against a hand-computed case, P/R, the idle cap."""

from datetime import UTC, datetime, timedelta

import pytest

from validation.domain.measures import (
    active_seconds,
    cohen_kappa,
    elapsed_seconds,
    per_hour,
    precision_recall,
)

A, R = "accepted", "rejected"


def test_kappa_matches_a_hand_computed_case():
    # 10 mentions: both accept 6, both reject 2, first accepts / second rejects 1, and the
    # reverse 1. p_o = 8/10 = 0.8. First accepts 7/10, second 7/10:
    # p_e = 0.7 * 0.7 + 0.3 * 0.3 = 0.58. kappa = (0.8 - 0.58) / (1 - 0.58) = 0.22 / 0.42.
    pairs = [(A, A)] * 6 + [(R, R)] * 2 + [(A, R), (R, A)]
    assert cohen_kappa(pairs) == pytest.approx(0.22 / 0.42)  # 0.5238...


def test_kappa_is_one_for_full_agreement_and_negative_below_chance():
    assert cohen_kappa([(A, A), (R, R)]) == pytest.approx(1.0)
    assert cohen_kappa([(A, R), (R, A)]) == pytest.approx(-1.0)


def test_kappa_is_undefined_without_pairs_or_with_one_label_throughout():
    assert cohen_kappa([]) is None
    assert cohen_kappa([(A, A), (A, A)]) is None


def test_precision_and_recall_count_accepted_mentions_as_positives():
    # validator accepts 4, consolidated accepts 3 of those and 1 the validator rejected
    pairs = [(A, A)] * 3 + [(A, R), (R, A), (R, R)]
    result = precision_recall(pairs)
    assert (result.precision, result.recall, result.mentions) == (0.75, 0.75, 6)
    assert result.f1 == pytest.approx(0.75)


def test_active_time_caps_each_pause_at_the_idle_cap():
    start = datetime(2026, 1, 1, 9, 0, 0)
    # gaps of 10 s, 20 s, then a 2-hour lunch (counts 300 s), then 5 s
    times = [
        start,
        start + timedelta(seconds=10),
        start + timedelta(seconds=30),
        start + timedelta(hours=2, seconds=30),
        start + timedelta(hours=2, seconds=35),
    ]
    assert active_seconds([times], cap=300) == 10 + 20 + 300 + 5
    assert per_hour(4, 335) == pytest.approx(4 * 3600 / 335)
    assert per_hour(3, 0) is None
    assert per_hour(7, 2) is None  # under a minute of active time: no rate
    assert per_hour(60, 60) == 3600


def test_elapsed_time_counts_every_pause_in_full_from_first_to_last_operation():
    start = datetime(2026, 1, 1, 9, tzinfo=UTC)
    first = [start + timedelta(seconds=s) for s in (0, 10, 3610)]
    second = [start + timedelta(seconds=s) for s in (7200, 7260)]
    assert elapsed_seconds([first, second, [start]]) == 3610 + 60
    assert active_seconds([first, second], cap=300) == 10 + 300 + 60
