"""Cycle finding for the hierarchy relations a file declares (parent -> child)."""

from __future__ import annotations

from collections.abc import Iterable


def find_cycles(edges: Iterable[tuple[str, str]]) -> list[list[str]]:
    """Cycles of the directed graph, each as the list of its nodes in edge order (the first
    node is not repeated at the end). Each cycle is found once, from the node where a
    depth-first walk (in edge order) first closes it; a graph with no cycle gives ``[]``."""
    children: dict[str, list[str]] = {}
    for parent, child in edges:
        children.setdefault(parent, []).append(child)
        children.setdefault(child, [])
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    cycles: list[list[str]] = []
    seen: set[frozenset[str]] = set()
    for root, successors in children.items():
        if root in state:
            continue
        path: list[str] = [root]
        stack = [iter(successors)]
        state[root] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                cycle = path[path.index(nxt) :]
                if frozenset(cycle) not in seen:
                    seen.add(frozenset(cycle))
                    cycles.append(cycle)
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(children[nxt]))
    return cycles
