"""Undo/redo over the operation log, derived from the log alone so it survives reloads.

A log entry is anything with `seq`, `kind` ("do", "undo" or "redo"), `effects` (the effects
that entry applied) and `target_seq` (for undo/redo: the seq of the `do` entry it acted on;
None for a `do`). `LogEntry` is the plain form; a database row with those attributes fits.

History is linear: undo reverts the latest `do` that is still in effect, redo re-applies the
latest undone one, and a new `do` clears what could be redone. An undo entry's effects are
the inverse of its target's; a redo entry's are the target's own, so replaying every entry's
effects in order reproduces the current state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, Protocol

from .effects import Effect, apply_effects, invert_effects
from .errors import CorruptEffects, NothingToRedo, NothingToUndo
from .state import AnnotationState


class Entry(Protocol):
    # Read-only: a log row may load its effects only when they are read.
    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def effects(self) -> list[Effect]: ...
    @property
    def target_seq(self) -> int | None: ...


class LogEntry(NamedTuple):
    seq: int
    kind: str
    effects: list[Effect]
    target_seq: int | None = None


def stacks(entries: Iterable[Entry]) -> tuple[list[Entry], list[Entry]]:
    """`(undoable, redoable)`: the `do` entries in effect and those undone, each stack's top
    last. Raises `CorruptEffects` when an undo/redo entry does not target the top of its stack."""
    undoable: list[Entry] = []
    redoable: list[Entry] = []
    for entry in entries:
        if entry.kind == "do":
            undoable.append(entry)
            redoable.clear()
        elif entry.kind in ("undo", "redo"):
            source, destination = (
                (undoable, redoable) if entry.kind == "undo" else (redoable, undoable)
            )
            if not source or source[-1].seq != entry.target_seq:
                raise CorruptEffects(
                    f"log entry {entry.seq} ({entry.kind}) targets {entry.target_seq}, which is "
                    f"not the next step to {entry.kind}",
                    seq=entry.seq,
                )
            destination.append(source.pop())
        else:
            raise CorruptEffects(
                f"log entry {entry.seq} has the unknown kind {entry.kind!r}", seq=entry.seq
            )
    return undoable, redoable


def undo_target(entries: Iterable[Entry]) -> Entry | None:
    """The `do` entry an undo would revert now, or None."""
    undoable, _ = stacks(entries)
    return undoable[-1] if undoable else None


def redo_target(entries: Iterable[Entry]) -> Entry | None:
    """The `do` entry a redo would re-apply now, or None."""
    _, redoable = stacks(entries)
    return redoable[-1] if redoable else None


def plan_undo(entries: Iterable[Entry]) -> tuple[int, list[Effect]]:
    """`(target_seq, effects)` of the next undo; `NothingToUndo` when there is none."""
    target = undo_target(entries)
    if target is None:
        raise NothingToUndo("There is nothing to undo.")
    return target.seq, invert_effects(target.effects)


def plan_redo(entries: Iterable[Entry]) -> tuple[int, list[Effect]]:
    """`(target_seq, effects)` of the next redo; `NothingToRedo` when there is none."""
    target = redo_target(entries)
    if target is None:
        raise NothingToRedo("There is nothing to redo.")
    return target.seq, list(target.effects)


class HasEffects(Protocol):
    """What replay reads of a log entry; a log row (Operation) has it too."""

    @property
    def effects(self) -> list[Effect]: ...


def replay(initial: AnnotationState, entries: Iterable[HasEffects]) -> AnnotationState:
    """A new state: `initial` (left untouched) with every entry's effects applied in order."""
    state = initial.copy()
    for entry in entries:
        apply_effects(state, entry.effects)
    return state
