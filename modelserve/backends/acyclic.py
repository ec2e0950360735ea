"""The greedy acyclic pass that builds a hierarchy from scored candidate edges between
clusters, shared by SciCo's decoding (scico_decoding.py, entailment.py) and the pair-score
decoding of the other backends (decoding.py). Each caller chooses the order. Pure."""

from __future__ import annotations

from collections.abc import Iterable

Edge = tuple[int, int, float]  # (parent cluster, child cluster, score)


def greedy_acyclic_edges(ordered: Iterable[Edge], *, single_parent: bool = True) -> list[Edge]:
    """The edges kept from `ordered`, taken one by one in the order given: one is skipped
    when it would close a cycle (its parent is already below its child) or, under the
    single-parent rule, when its child already has a parent. A skip depends only on the edges
    kept before it."""
    children: dict[int, list[int]] = {}
    has_parent: set[int] = set()
    kept: list[Edge] = []
    for parent, child, score in ordered:
        if single_parent and child in has_parent:
            continue
        if _reaches(children, child, parent):
            continue
        children.setdefault(parent, []).append(child)
        has_parent.add(child)
        kept.append((parent, child, score))
    return kept


def _reaches(children: dict[int, list[int]], start: int, goal: int) -> bool:
    stack, seen = [start], {start}
    while stack:
        node = stack.pop()
        if node == goal:
            return True
        for nxt in children.get(node, ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False
