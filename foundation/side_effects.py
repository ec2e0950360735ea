"""The one way to send a side effect (a broadcast, a queued task, a cache update): after the
current transaction commits, so nobody hears of a change that was rolled back."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.db import transaction


def after_commit(send: Callable[..., Any], /, *args: Any, **kwargs: Any) -> None:
    """Call `send(*args, **kwargs)` once the current transaction commits (at once outside
    one). The arguments are bound now, so a caller's loop variable cannot change under it."""
    transaction.on_commit(functools.partial(send, *args, **kwargs))
