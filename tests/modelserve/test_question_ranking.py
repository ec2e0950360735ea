"""The question mode's uncertainty (modelserve/questions.py): pure arithmetic over scores.
The order of the questions is in the cases shared with Vitest (test_golden_ranking.py)."""

from __future__ import annotations

import pytest

from modelserve.questions import binary_uncertainty, entropy_bits, uncertainty


@pytest.mark.parametrize(
    ("score", "expected"), [(0.5, 1.0), (0.0, 0.0), (1.0, 0.0), (0.75, 0.5), (0.25, 0.5)]
)
def test_binary_uncertainty_peaks_at_even_odds(score, expected):
    assert binary_uncertainty(score) == pytest.approx(expected)


def test_a_threshold_off_the_middle_still_spans_zero_to_one_on_each_side():
    assert binary_uncertainty(0.8, threshold=0.8) == 1.0
    assert binary_uncertainty(0.4, threshold=0.8) == pytest.approx(0.5)
    assert binary_uncertainty(0.9, threshold=0.8) == pytest.approx(0.5)


def test_entropy_is_zero_for_a_sure_answer_and_one_bit_for_an_even_split_of_two():
    assert entropy_bits([1.0, 0.0, 0.0]) == 0.0
    assert entropy_bits([0.5, 0.5, 0.0]) == pytest.approx(1.0)
    assert entropy_bits([2.0, 2.0]) == pytest.approx(1.0)  # normalised first
    assert entropy_bits([0.25] * 4) == pytest.approx(2.0)


def test_a_sure_link_of_an_unsure_type_is_worth_asking():
    split = {"NONE": 0.0, "WORK_UP": 0.5, "REACTION_ASSOCIATED": 0.5}
    sure = {"NONE": 0.0, "WORK_UP": 1.0, "REACTION_ASSOCIATED": 0.0}
    assert uncertainty("link", 0.5, split) == 1.0
    assert uncertainty("link", 1.0, sure) == 0.0
    assert uncertainty("link", 0.95, split) > uncertainty("membership", 0.95)


def test_a_decoded_link_carries_the_models_type_distribution_for_its_question():
    import numpy as np

    from modelserve.backends.chemu_linking import decode
    from modelserve.backends.chemu_model import CLASSES

    # One pair, text positions (1 -> 0); the model splits WORK_UP / REACTION_ASSOCIATED.
    row = dict.fromkeys(CLASSES, 0.0) | {"NONE": 0.02, "WORK_UP": 0.55, "REACTION_ASSOCIATED": 0.43}
    probabilities = np.array([[row[name] for name in CLASSES]], dtype=np.float32)

    (link,) = decode([(1, 0)], probabilities, order=[0, 1], threshold=0.3)

    assert link.type == "WORK_UP"
    assert link.type_scores == pytest.approx(row)
    assert uncertainty("link", link.score, link.type_scores) > uncertainty("link", link.score)
