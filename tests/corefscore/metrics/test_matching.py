"""Our matching code against scipy's (which the CLI does not import, for start-up time)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment as scipy_linear_sum_assignment

from corefscore.metrics.matching import linear_sum_assignment, maximum_matching_size

from .reference_scorers import scipy_matching_size

SETTINGS = settings(max_examples=400, deadline=None)


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


# phi4 values of small clusters: many exact ties, as in real coreference output
PHI4 = st.sampled_from([0.0, 0.0, 0.0, 2 / 5, 1 / 2, 2 / 3, 1.0, 4 / 7, 2 / 7, 1 / 3, 4 / 9])


@SETTINGS
@given(
    matrix=st.integers(0, 9).flatmap(
        lambda rows: st.integers(0, 9).flatmap(
            lambda cols: st.lists(
                st.lists(PHI4, min_size=cols, max_size=cols), min_size=rows, max_size=rows
            )
        )
    )
)
def test_assignment_is_the_very_one_scipy_returns_even_among_ties(matrix):
    cost = [[-x for x in row] for row in matrix]
    rows, columns = linear_sum_assignment(cost)
    if not matrix or not matrix[0]:
        assert (rows, columns) == ([], [])
        return
    expected_rows, expected_columns = scipy_linear_sum_assignment(-np.array(matrix))
    assert rows == expected_rows.tolist()
    assert columns == expected_columns.tolist()


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), rows=st.integers(1, 25), cols=st.integers(1, 25))
def test_assignment_of_random_real_matrices_is_scipys(seed, rows, cols):
    matrix = np.random.default_rng(seed).random((rows, cols)).round(2)
    expected_rows, expected_columns = scipy_linear_sum_assignment(matrix)
    assert linear_sum_assignment(matrix.tolist()) == (
        expected_rows.tolist(),
        expected_columns.tolist(),
    )
