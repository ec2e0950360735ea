"""Hierarchy operations: set_parent, add_edge, remove_edge.

Creating edges needs the project's hierarchy scheme; removing one is always allowed, so an
annotation made before the scheme was switched off can still be cleaned up.
"""

from __future__ import annotations

from .. import effects as fx
from ..errors import (
    DuplicateError,
    NoChange,
    NotAllowed,
    NotFound,
    SelfLoopError,
    SingleParentError,
)
from ..state import AnnotationState
from .clusters import require_cluster
from .graph import ancestor_path, cycle_error
from .result import OperationResult


def _require_hierarchy(state: AnnotationState) -> None:
    if not state.settings.hierarchy:
        raise NotAllowed("This project has no cluster hierarchy.", setting="hierarchy")


def _refuse_loops(state: AnnotationState, parent: int, child: int, action: str) -> None:
    if parent == child:
        raise SelfLoopError(f"A cluster cannot be its own parent: {state.cluster_name(child)}.")
    path = ancestor_path(state, parent, child)  # child -> ... -> parent already?
    if path is not None:
        raise cycle_error(state, action, path + [child])


def set_parent(state: AnnotationState, *, child: int, parent: int | None) -> OperationResult:
    """Make `parent` the only parent of `child`; None moves `child` to the top level."""
    _require_hierarchy(state)
    require_cluster(state, child)
    current = state.parents[child]
    if parent is None:
        if not current:
            raise NoChange(f"Cluster {state.cluster_name(child)} is already at the top level.")
        return OperationResult([fx.edge_removed(p, child) for p in sorted(current)])
    require_cluster(state, parent)
    if current == {parent}:
        raise NoChange(
            f"{state.cluster_name(parent)} is already the parent of {state.cluster_name(child)}."
        )
    action = f"Putting {state.cluster_name(child)} under {state.cluster_name(parent)}"
    _refuse_loops(state, parent, child, action)
    effects = [fx.edge_removed(p, child) for p in sorted(current - {parent})]
    if parent not in current:
        effects.append(fx.edge_added(parent, child))
    return OperationResult(effects)


def add_edge(state: AnnotationState, *, parent: int, child: int) -> OperationResult:
    """Add `parent -> child`; under single-parent only for a child that has no parent yet."""
    _require_hierarchy(state)
    require_cluster(state, parent)
    require_cluster(state, child)
    if (parent, child) in state.edges:
        raise DuplicateError(
            f"{state.cluster_name(parent)} is already a parent of {state.cluster_name(child)}."
        )
    action = f"Adding the edge {state.cluster_name(parent)} -> {state.cluster_name(child)}"
    _refuse_loops(state, parent, child, action)
    if state.settings.single_parent and state.parents[child]:
        current = min(state.parents[child])
        raise SingleParentError(
            f"{state.cluster_name(child)} already has the parent {state.cluster_name(current)} "
            f"and this project allows one parent per cluster; use set_parent to move it instead."
        )
    return OperationResult([fx.edge_added(parent, child)])


def remove_edge(state: AnnotationState, *, parent: int, child: int) -> OperationResult:
    require_cluster(state, parent)
    require_cluster(state, child)
    if (parent, child) not in state.edges:
        raise NotFound(
            "edge",
            [parent, child],
            f"{state.cluster_name(parent)} is not a parent of {state.cluster_name(child)}.",
        )
    return OperationResult([fx.edge_removed(parent, child)])
