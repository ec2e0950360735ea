"""Builders for annotation states and a tiny in-memory stand-in for the service.

`topic()` gives 12 mentions in 3 documents of 40 tokens: mention k (1..12) lies in document
(k - 1) // 4 + 1 at tokens [4j, 4j + 1], j = (k - 1) % 4, so in each document a mention with
a larger id comes later in the text. Cluster ids given by tests are small; new ones drawn by
`Session` start at 100, new mention ids at 1000.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from annotation.domain.effects import apply_effects
from annotation.domain.history import LogEntry, plan_redo, plan_undo
from annotation.domain.invariants import invariant_violations
from annotation.domain.operations import OperationResult, plan
from annotation.domain.state import AnnotationState, Cluster, Link, Mention, Settings

TEXTS = {k: f"m{k}" for k in range(1, 13)}


def mention_text(mention: Mention) -> str:
    return TEXTS.get(mention.id, f"new{mention.id}")


def topic(
    clusters: dict[int, tuple] | None = None,
    edges: list[tuple[int, int]] = (),
    links: list[tuple[str, int, int]] = (),
    rejected: tuple[int, ...] = (),
    **settings: Any,
) -> AnnotationState:
    """`clusters`: id -> (label, [mention ids]) or (label, [mention ids], note)."""
    mentions = {}
    for k in range(1, 13):
        j = (k - 1) % 4
        mentions[k] = Mention(k, (k - 1) // 4 + 1, ((4 * j, 4 * j + 1),), rejected=k in rejected)
    built = {}
    for id, (label, members, *note) in (clusters or {}).items():
        built[id] = Cluster(id, label, note[0] if note else "", set(members))
    return AnnotationState(
        settings=Settings(**settings),
        documents={1: 40, 2: 40, 3: 40},
        mentions=mentions,
        clusters=built,
        edges=set(edges),
        links={Link(*link) for link in links},
        mention_text=mention_text,
    )


def ids_from(start: int):
    counter = itertools.count(start)
    return lambda kind: next(counter)


@dataclass
class Session:
    """Plans, applies and logs operations the way the service will, minus the database."""

    state: AnnotationState
    log: list[LogEntry] = field(default_factory=list)
    _clusters: Any = field(default_factory=lambda: itertools.count(100))
    _mentions: Any = field(default_factory=lambda: itertools.count(1000))

    def __post_init__(self) -> None:
        self.initial = self.state.copy()

    def new_id(self, kind: str) -> int:
        return next(self._clusters if kind == "cluster" else self._mentions)

    def do(self, op: dict) -> OperationResult:
        result = plan(self.state, op, self.new_id)
        self._apply("do", result.effects, None)
        return result

    def undo(self) -> None:
        target, effects = plan_undo(self.log)
        self._apply("undo", effects, target)

    def redo(self) -> None:
        target, effects = plan_redo(self.log)
        self._apply("redo", effects, target)

    def _apply(self, kind: str, effects: list, target: int | None) -> None:
        apply_effects(self.state, effects)
        self.log.append(LogEntry(len(self.log) + 1, kind, effects, target))
        problems = invariant_violations(self.state)
        assert not problems, problems
