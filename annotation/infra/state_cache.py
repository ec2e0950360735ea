"""A per-process cache of annotation states, keyed by annotation id, version and the
project's settings.

Correctness never depends on it: an operation locks the annotation row, reads its version and
the project's settings in the same statement, and uses the cached state only when both match;
otherwise (another process wrote, an admin changed a project flag, or the entry was evicted)
it loads from PostgreSQL. A settings change bumps no annotation version, so the settings are
part of the key: the next operation in every process sees them. It saves the ~7 reads of a
1,000-mention annotation on every keystroke of the annotator working on it.

One holder at a time: `take` removes the entry, so a state is either in the cache or held by
exactly one reader or writer, never both. A writer mutates the state it took in place; a
reader gives it back with `give_back` when it has finished reading.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from annotation.domain.state import AnnotationState, Settings

MAX_ENTRIES = 64

_lock = threading.Lock()
_entries: OrderedDict[int, tuple[int, AnnotationState]] = OrderedDict()


def take(annotation_id: int, version: int, settings: Settings) -> AnnotationState | None:
    """Remove and return the state if it is at `version` under `settings`. Taking it out means
    a failed operation (which may have half-applied effects to it) can never leave it behind,
    and no other thread can reach it while the taker holds it."""
    with _lock:
        entry = _entries.pop(annotation_id, None)
    if entry is not None and entry[0] == version and entry[1].settings == settings:
        return entry[1]
    return None


def put(annotation_id: int, version: int, state: AnnotationState) -> None:
    """Store the state of a committed `version`; the caller no longer touches it."""
    with _lock:
        _store(annotation_id, version, state)


def give_back(annotation_id: int, version: int, state: AnnotationState) -> None:
    """A reader returns the state it has finished reading, unless a writer has meanwhile
    stored a newer one."""
    with _lock:
        present = _entries.get(annotation_id)
        if present is None or present[0] < version:
            _store(annotation_id, version, state)


def _store(annotation_id: int, version: int, state: AnnotationState) -> None:
    """Under `_lock`."""
    _entries[annotation_id] = (version, state)
    _entries.move_to_end(annotation_id)
    while len(_entries) > MAX_ENTRIES:
        _entries.popitem(last=False)


def clear() -> None:
    with _lock:
        _entries.clear()
