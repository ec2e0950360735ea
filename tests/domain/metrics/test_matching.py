"""Our matching code against scipy's (which the CLI does not import, for start-up time)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from annotation.domain.metrics.matching import maximum_matching_size, maximum_weight_assignment

from .reference_scorers import scipy_matching_size

SETTINGS = settings(max_examples=300, deadline=None)


@st.composite
def bipartite_graphs(draw):
    n_left, n_right = draw(st.integers(0, 9)), draw(st.integers(0, 9))
    cells = [(i, j) for i in range(n_left) for j in range(n_right)]
    edges = draw(st.lists(st.sampled_from(cells), unique=True)) if cells else []
    return n_left, n_right, edges


@SETTINGS
@given(graph=bipartite_graphs())
def test_matching_size_equals_scipys_maximum_bipartite_matching(graph):
    n_left, n_right, edges = graph
    adjacency = [[j for i2, j in edges if i2 == i] for i in range(n_left)]
    assert maximum_matching_size(adjacency, n_right) == scipy_matching_size(edges, n_left, n_right)


def test_matching_finds_the_augmenting_path_greedy_misses():
    # left 0 likes right 0 and 1, left 1 only right 0: greedy 0-0 leaves 1 unmatched.
    assert maximum_matching_size([[0, 1], [0]], 2) == 2


@SETTINGS
@given(
    weights=st.integers(0, 6).flatmap(
        lambda rows: st.integers(0, 6).flatmap(
            lambda cols: st.lists(
                st.lists(st.fractions(0, 1, max_denominator=12), min_size=cols, max_size=cols),
                min_size=rows, max_size=rows,
            )
        )
    )
)
def test_assignment_total_equals_scipys_linear_sum_assignment(weights):
    pairs = maximum_weight_assignment(weights)
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    assert len(pairs) == min(rows, cols)
    assert len({i for i, _ in pairs}) == len({j for _, j in pairs}) == len(pairs)
    total = sum((weights[i][j] for i, j in pairs), Fraction(0))
    if rows and cols:
        matrix = np.array([[float(w) for w in row] for row in weights])
        r, c = linear_sum_assignment(-matrix)
        assert float(total) == pytest.approx(matrix[r, c].sum(), abs=1e-12)
