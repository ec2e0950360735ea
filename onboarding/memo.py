"""Short-lived per-process answers to the two questions every operation asks: does this
project require qualification, and is this topic a guided practice topic (with its
feedback)? Almost always "no", and asking PostgreSQL twice per keystroke costs more than the
operation's own work on a loaded server. Kept TTL seconds; this process forgets at once when
it changes a rule or a practice topic itself (`memo_forget`), other web processes within TTL
seconds (a rule or a practice topic changed by an admin takes effect that much later there).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

TTL = 5.0

_answers: dict[tuple[str, int], tuple[float, Any]] = {}


def memo(
    kind: str, key: int, compute: Callable[[], Any], *, now: Callable[[], float] = time.monotonic
) -> Any:
    at = now()
    found = _answers.get((kind, key))
    if found is not None and found[0] > at:
        return found[1]
    value = compute()
    _answers[(kind, key)] = (at + TTL, value)
    return value


def memo_forget() -> None:
    _answers.clear()
