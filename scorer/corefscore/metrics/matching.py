"""Maximum bipartite matching and the optimal (maximum-weight) assignment.

Why our own code rather than scipy (``scipy.sparse.csgraph.maximum_bipartite_matching`` and
``scipy.optimize.linear_sum_assignment``, which the tests use as the reference): importing
either costs 0.3 to 0.5 s on the 2-core machine, more than the whole budget of the
``score`` command (0.3 s), and the graphs here are small (tens of nodes per topic).

- The *size* of a maximum matching is unique, so any correct algorithm gives BRATEval's TP.
- For CEAF-e, coval sums the similarities of the assignment scipy returns, and when several
  assignments are optimal their sums can differ in the last bit; :func:`linear_sum_assignment`
  therefore makes scipy's very choices (the tests compare both on tie-heavy matrices).
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def maximum_matching_size(adjacency: Sequence[Sequence[int]], n_right: int) -> int:
    """Size of a maximum matching; ``adjacency[u]`` lists the right nodes of left node ``u``.

    Kuhn's augmenting paths, with an explicit stack so deep graphs cannot hit the recursion
    limit. O(V E), plenty for a topic's mentions or relations.
    """
    match_right = [-1] * n_right
    match_left = [-1] * len(adjacency)
    size = 0
    for root, neighbours in enumerate(adjacency):
        if not neighbours:
            continue
        free = next((v for v in neighbours if match_right[v] == -1), -1)
        if free != -1:
            match_right[free], match_left[root] = root, free
            size += 1
            continue
        end = _augmenting_path_end(root, adjacency, match_right)
        if end is None:
            continue
        right, via = end
        while True:
            left = via[right]
            previous = match_left[left]
            match_right[right], match_left[left] = left, right
            if left == root:
                break
            right = previous
        size += 1
    return size


def _augmenting_path_end(
    root: int, adjacency: Sequence[Sequence[int]], match_right: list[int]
) -> tuple[int, dict[int, int]] | None:
    """Depth-first search for a free right node; returns it and the tree edges that reach it."""
    via: dict[int, int] = {}
    stack = [(root, iter(adjacency[root]))]
    while stack:
        left, neighbours = stack[-1]
        for right in neighbours:
            if right in via:
                continue
            via[right] = left
            owner = match_right[right]
            if owner == -1:
                return right, via
            stack.append((owner, iter(adjacency[owner])))
            break
        else:
            stack.pop()
    return None


def linear_sum_assignment(cost: Sequence[Sequence[float]]) -> tuple[list[int], list[int]]:
    """The minimum-cost assignment ``scipy.optimize.linear_sum_assignment(cost)`` returns.

    Same algorithm (Crouse's shortest augmenting path, DF Crouse, IEEE TAES 52(4), 2016) and
    the same choices wherever several assignments are optimal: a tall matrix is transposed;
    the remaining columns are scanned from the last; among equally short paths the scan
    prefers a free column; dual variables are updated in scipy's order. So the assignment
    is scipy's one, not just an optimal one, and what coval sums over it has coval's last
    digit (ties are common: many clusters of one or two mentions give equal phi4 values).
    Returns (rows, columns), rows ascending. Pure Python floats, which round as C doubles.
    """
    n_rows = len(cost)
    n_cols = len(cost[0]) if n_rows else 0
    if not n_rows or not n_cols:
        return [], []
    transpose = n_cols < n_rows
    if transpose:
        matrix = [[cost[i][j] for i in range(n_rows)] for j in range(n_cols)]
        n_rows, n_cols = n_cols, n_rows
    else:
        matrix = [list(row) for row in cost]
    u = [0.0] * n_rows
    v = [0.0] * n_cols
    path = [-1] * n_cols
    col4row = [-1] * n_rows
    row4col = [-1] * n_cols
    for current in range(n_rows):
        min_val, sink, shortest, visited_rows, visited_cols = _shortest_augmenting_path(
            current, matrix, u, v, path, row4col
        )
        u[current] += min_val
        for i in range(n_rows):
            if visited_rows[i] and i != current:
                u[i] += min_val - shortest[col4row[i]]
        for j in range(n_cols):
            if visited_cols[j]:
                v[j] -= min_val - shortest[j]
        j = sink
        while True:
            i = path[j]
            row4col[j] = i
            col4row[i], j = j, col4row[i]
            if i == current:
                break
    if transpose:
        order = sorted(range(n_rows), key=col4row.__getitem__)
        return [col4row[k] for k in order], order
    return list(range(n_rows)), col4row


def _shortest_augmenting_path(
    i: int,
    matrix: list[list[float]],
    u: list[float],
    v: list[float],
    path: list[int],
    row4col: list[int],
) -> tuple[float, int, list[float], list[bool], list[bool]]:
    """(min_val, sink, shortest, visited rows, visited columns) of scipy's
    ``augmenting_path`` from row ``i``; ``path`` is filled in."""
    n_rows, n_cols = len(matrix), len(v)
    remaining = list(range(n_cols - 1, -1, -1))
    visited_rows, visited_cols = [False] * n_rows, [False] * n_cols
    shortest = [math.inf] * n_cols
    min_val = 0.0
    while True:
        index, lowest = -1, math.inf
        visited_rows[i] = True
        row, u_i = matrix[i], u[i]
        for it, j in enumerate(remaining):
            reduced = min_val + row[j] - u_i - v[j]
            if reduced < shortest[j]:
                path[j] = i
                shortest[j] = reduced
            if shortest[j] < lowest or (shortest[j] == lowest and row4col[j] == -1):
                lowest, index = shortest[j], it
        min_val = lowest
        if min_val == math.inf:
            raise ValueError("infeasible cost matrix")
        j = remaining[index]
        visited_cols[j] = True
        remaining[index] = remaining[-1]
        remaining.pop()
        if row4col[j] == -1:
            return min_val, j, shortest, visited_rows, visited_cols
        i = row4col[j]
