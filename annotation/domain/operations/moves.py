"""Moving mentions between clusters, and deleting the clusters a move leaves empty.

An emptied cluster is deleted and its children are re-attached to its parents (or become
roots). When several clusters are emptied at once and one is a child of another (a split
taking the mentions of both), a child is re-attached to its nearest ancestors that survive.
Re-attaching to an ancestor cannot close a cycle. Under single-parent a cluster has at most
one surviving nearest ancestor, so the rule holds after the move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .. import effects as fx
from ..errors import DuplicateError
from ..state import AnnotationState, Spans
from .labels import relabel_effects


def move_effects(
    state: AnnotationState, moves: Iterable[tuple[int, int | None]]
) -> tuple[list[fx.Effect], list[str]]:
    """Effects of moving each mention to its target (a cluster id, or None = unassigned).

    Targets must exist (or be created by effects placed before these). Returns the effects
    and warnings that name the clusters left empty and removed.
    """
    effects: list[fx.Effect] = []
    leaving: Counter[int] = Counter()
    left: dict[int, list[int]] = {}
    gaining: set[int] = set()
    for mention, target in moves:
        old = state.mention_cluster.get(mention)
        if old == target:
            continue
        effects.append(fx.member_set(mention, old, target))
        if old is not None:
            leaving[old] += 1
            left.setdefault(old, []).append(mention)
        if target is not None:
            gaining.add(target)
    emptied = {
        id
        for id, count in leaving.items()
        if count == len(state.clusters[id].members) and id not in gaining
    }
    deletions, warnings = delete_effects(state, emptied)
    kept = {id: gone for id, gone in left.items() if id not in emptied}
    return effects + relabel_effects(state, kept) + deletions, warnings


def delete_effects(state: AnnotationState, doomed: set[int]) -> tuple[list[fx.Effect], list[str]]:
    """Effects that delete the (emptied) `doomed` clusters, re-attaching their children."""
    if not doomed:
        return [], []
    survivors = _surviving_parents(state, doomed)
    removed: set[tuple[int, int]] = set()
    added: set[tuple[int, int]] = set()
    for id in doomed:
        removed.update((parent, id) for parent in state.parents[id])
        removed.update((id, child) for child in state.children[id])
        for child in state.children[id]:
            if child not in doomed:
                added.update(
                    (parent, child)
                    for parent in survivors[id]
                    if (parent, child) not in state.edges
                )
    effects = [fx.edge_removed(*edge) for edge in sorted(removed)]
    effects += [fx.edge_added(*edge) for edge in sorted(added)]
    warnings = []
    for id in sorted(doomed):
        effects += cluster_deletion(state, id)
        warnings.append(_removal_warning(state, id, doomed, survivors[id]))
    return effects, warnings


def _surviving_parents(state: AnnotationState, doomed: set[int]) -> dict[int, set[int]]:
    """For each doomed cluster, its nearest ancestors outside `doomed` (iterative post-order)."""
    result: dict[int, set[int]] = {}
    for start in doomed:
        stack = [start]
        while stack:
            id = stack[-1]
            if id in result:
                stack.pop()
                continue
            pending = [p for p in state.parents[id] if p in doomed and p not in result]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            survivors: set[int] = set()
            for parent in state.parents[id]:
                if parent in doomed:
                    survivors |= result[parent]
                else:
                    survivors.add(parent)
            result[id] = survivors
    return result


def _removal_warning(
    state: AnnotationState, id: int, doomed: set[int], new_parents: set[int]
) -> str:
    message = f"Cluster {state.cluster_name(id)} was left empty and removed"
    children = sorted(child for child in state.children[id] if child not in doomed)
    if not children:
        return message + "."
    names = ", ".join(state.cluster_name(child) for child in children)
    where = (
        " and ".join(state.cluster_name(p) for p in sorted(new_parents))
        if new_parents
        else "the top level"
    )
    return f"{message}; its subclusters {names} moved up to {where}."


def unreject_effects(state: AnnotationState, mentions: Iterable[int]) -> list[fx.Effect]:
    """Effects that bring rejected mentions back (assigning a rejected mention reopens it).

    Refused when a mention would duplicate an active mention with the same spans.
    """
    effects = []
    reopened: set[tuple[int, Spans]] = set()
    for id in mentions:
        mention = state.mentions[id]
        if not mention.rejected:
            continue
        key = (mention.document, mention.spans)
        if state.active_mentions_at(*key) or key in reopened:
            raise DuplicateError(
                f"{state.mention_name(id)} was rejected and another active mention now has "
                "the same spans; use that mention instead."
            )
        reopened.add(key)
        effects.append(fx.rejected_set(id, True, False))
    return effects


def cluster_deletion(state: AnnotationState, id: int) -> list[fx.Effect]:
    """The effects that delete the (emptied, edgeless) cluster `id`: its attributes cleared
    first, so that undo restores them."""
    cluster = state.clusters[id]
    effects = [
        fx.cluster_attribute_set(id, name, value, None)
        for name, value in sorted(cluster.attributes.items())
    ]
    effects.append(fx.cluster_deleted(id, cluster.label, cluster.note))
    return effects
