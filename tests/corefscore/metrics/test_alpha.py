"""Krippendorff's alpha (nominal): the package's value, our units, our degenerate cases."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.metrics.alpha import (
    NONE,
    mention_units,
    nominal_alpha,
    pool_units,
    relation_units,
)

SETTINGS = settings(max_examples=200, deadline=None)


def two_coder_alpha(first, second):
    """Coincidence-matrix formula for two coders and no missing value (Krippendorff 2011)."""
    values = sorted(set(first) | set(second), key=repr)
    o = {(a, b): 0 for a in values for b in values}
    for a, b in zip(first, second, strict=True):
        o[a, b] += 1
        o[b, a] += 1
    n = 2 * len(first)
    n_c = {c: sum(o[c, k] for k in values) for c in values}
    observed = sum(o[c, k] for c in values for k in values if c != k)
    expected = sum(n_c[c] * n_c[k] for c in values for k in values if c != k) / (n - 1)
    return 1 - observed / expected


@SETTINGS
@given(
    units=st.integers(1, 30).flatmap(
        lambda n: st.tuples(
            *(st.lists(st.sampled_from("ABC"), min_size=n, max_size=n) for _ in range(2))
        )
    )
)
def test_alpha_equals_the_coincidence_matrix_formula(units):
    first, second = units
    if len(set(first) | set(second)) < 2:
        assert nominal_alpha([first, second]) == 1.0
    else:
        assert nominal_alpha([first, second]) == pytest.approx(
            two_coder_alpha(first, second), rel=1e-12
        )


def test_alpha_of_krippendorffs_binary_example_is_0_095():
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability", two observers, 10 units:
    # o00 = 10, o11 = 2, o01 = o10 = 4, n0 = 14, n1 = 6; alpha = 1 - 19 * 4 / (14 * 6) = 8/84.
    a = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0]
    b = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0]
    assert nominal_alpha([a, b]) == pytest.approx(8 / 84, rel=1e-12)


def test_alpha_without_units_is_undefined_and_with_a_single_value_is_one():
    assert nominal_alpha([[], []]) is None
    assert nominal_alpha([["X", "X"], ["X", "X"]]) == 1.0
    assert nominal_alpha([["X"]]) is None


def test_relation_units_are_pairs_linked_by_anyone_valued_by_type_or_none():
    a, b, c = (0, ((5, 5),)), (0, ((3, 3),)), (0, ((1, 1),))
    first = [("COREFERENCE", a, b), ("COREFERENCE", b, c)]  # expands to a->c too
    second = [("COREFERENCE", a, c), ("WORK_UP", a, b), ("CONTAINED", a, b)]
    rows = relation_units([first, second])
    # units in mention order: (b, c), (a, c), (a, b)
    assert rows == [
        ["COREFERENCE", "COREFERENCE", "COREFERENCE"],
        [NONE, "COREFERENCE", "CONTAINED+WORK_UP"],
    ]


def test_mention_units_are_tokens_inside_or_outside_a_mention():
    rows = mention_units([[(0, ((1, 2),))], [(0, ((2, 2),)), (1, ((0, 0), (2, 2)))]], [4, 3])
    assert rows == [[0, 1, 1, 0, 0, 0, 0], [0, 0, 1, 0, 1, 0, 1]]


def test_pooling_concatenates_the_units_of_several_topics():
    assert pool_units([[[1], [2]], [[3, 4], [5, 6]]]) == [[1, 3, 4], [2, 5, 6]]


def test_a_coreference_chain_and_its_collapsed_form_do_not_agree():
    """docs/scoring.md's example: the COREFERENCE expansion is a *directed* closure, so the
    chain T3 -> T2 -> T1 (closed: T3->T2, T2->T1, T3->T1) and its collapsed form T2 -> T1,
    T3 -> T1 differ on the unit T3->T2; one agreed TRANSFORMED link besides.

    By hand (Krippendorff, nominal): 4 units of 2 values, n = 8; values COREFERENCE 5,
    NONE 1, TRANSFORMED 2; D_o = 2 / 8 (one disagreeing unit, both orders);
    D_e = 2 (5*1 + 5*2 + 1*2) / (8 * 7) = 34 / 56; alpha = 1 - D_o / D_e = 10 / 17 = 0.588."""

    def mention(token):
        return (0, ((token, token),))

    coref, transformed = "COREFERENCE", ("TRANSFORMED", mention(20), mention(40))
    chain = [(coref, mention(2), mention(1)), (coref, mention(3), mention(2)), transformed]
    collapsed = [(coref, mention(2), mention(1)), (coref, mention(3), mention(1)), transformed]

    alpha = nominal_alpha(relation_units([chain, collapsed]))

    assert alpha == pytest.approx(10 / 17)
    assert round(alpha, 3) == 0.588
