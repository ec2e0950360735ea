"""Agreement on link attributes, against values computed by hand."""

import pytest

from corefscore.metrics.attributes import attribute_agreement, cohen_kappa


def test_two_annotators_by_hand():
    # ann and bob both drew L1-L4; L5 and L6 only one of them (never compared).
    ann = {
        "L1": {"c": "high"},
        "L2": {"c": "high"},
        "L3": {"c": "low"},
        "L4": {},
        "L5": {"c": "high"},
    }
    bob = {
        "L1": {"c": "high"},
        "L2": {"c": "low"},
        "L3": {"c": "low"},
        "L4": {"c": "low"},
        "L6": {"c": "x"},
    }
    result = attribute_agreement({"ann": ann, "bob": bob}, ["c"])["c"]
    # compared: (high, high) (high, low) (low, low) (none, low): 2 of 4 agree
    assert result["units"] == 4
    assert result["observed"] == 0.5
    # chance: ann high 2, low 1, none 1; bob high 1, low 3 -> (2*1 + 1*3) / 16 = 5/16;
    # kappa = (1/2 - 5/16) / (1 - 5/16) = 3/11
    assert result["pairs"]["ann-bob"]["kappa"] == pytest.approx(3 / 11)
    # alpha: 8 values (high 3, low 4, none 1), 4 disagreeing ordered pairs: D_o = 4/8;
    # D_e = (8^2 - (9 + 16 + 1)) / (8 * 7) = 38/56; alpha = 1 - (1/2) / (38/56) = 5/19
    assert result["alpha"] == pytest.approx(5 / 19)


def test_links_neither_annotated_are_not_compared():
    result = attribute_agreement({"a": {"L1": {}}, "b": {"L1": {}}}, ["c"])["c"]
    assert (result["units"], result["observed"], result["alpha"]) == (0, None, None)
    assert result["pairs"]["a-b"]["kappa"] is None


def test_one_value_throughout_is_full_agreement():
    assert cohen_kappa([("high", "high"), ("high", "high")]) == 1.0
