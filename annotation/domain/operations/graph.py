"""Cycle detection over the hierarchy's parent index.

A plain iterative DFS upwards through `state.parents`, not networkx: it runs inside every
hierarchy operation, and going up only visits the ancestors of one cluster (its depth under
single-parent), never the whole topic.
"""

from __future__ import annotations

from ..errors import CycleError
from ..state import AnnotationState


def ancestor_path(
    state: AnnotationState, node: int, ancestor: int, *, ignore_parent: int | None = None
) -> list[int] | None:
    """A downward path `[ancestor, ..., node]` if `ancestor` is a proper ancestor of `node`.

    `ignore_parent` drops the direct edge `ignore_parent -> node` from the search, so that
    the path found, if any, goes through at least one other cluster.
    """
    came_from: dict[int, int] = {}  # cluster -> the child it was reached from
    stack: list[int] = []
    for parent in state.parents[node]:
        if parent != ignore_parent:
            came_from[parent] = node
            stack.append(parent)
    while stack:
        current = stack.pop()
        if current == ancestor:
            path = [current]
            while path[-1] != node:
                path.append(came_from[path[-1]])
            return path
        for parent in state.parents[current]:
            if parent not in came_from and parent != node:
                came_from[parent] = current
                stack.append(parent)
    return None


def cycle_error(state: AnnotationState, action: str, cycle: list[int]) -> CycleError:
    """`cycle` lists the clusters in order, the first one repeated at the end."""
    named = " -> ".join(state.cluster_name(id) for id in cycle)
    return CycleError(
        f"{action} would close a cycle: {named}.",
        path=[(id, state.clusters[id].label) for id in cycle],
    )
