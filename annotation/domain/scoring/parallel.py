"""Sharing a list of independent jobs between this process and one forked child.

The command line's work is a few hundred independent jobs twice over: the lines of the files
(JSON and validation), then the topics (scoring). On the 2-core machine the issue measures,
one forked child is what pays: it starts in about a millisecond, inherits every input without
copying or pickling, and sends back only the results. (Measured again once reading had become
~4x cheaper: up to a load average of ~2 the child still saves ~15-20% of the wall time of
``score`` and ~25-35% of ``iaa``, for 10-30% more CPU; bench/scoring/README.md.)

:func:`split_map` balances the work as it goes, which matters on a shared, loaded machine: the
parent takes jobs from the front, the child from the back, each claiming a job in a shared
page before running it and stopping where the other has claimed. Each job's result is
computed by exactly the code a serial run uses, and results come back in job order, so the
outcome does not depend on who computed what. If both happen to take the meeting job, it
runs twice (harmless); if the child fails in any way, the parent computes what is missing
itself, so an error surfaces as it would in a serial run.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

_MISSING = object()


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    return hasattr(os, "fork") and cpu_count() > 1


def split_map(
    function: Callable[[Item], Result],
    items: Sequence[Item],
    *,
    first: Callable[[], None] | None = None,
) -> list[Result]:
    """``[function(item) for item in items]``, shared with a forked child when that can pay.

    ``first`` runs in this process before it takes its first job (the command line imports
    the scoring modules there while the child already works).
    """
    if len(items) < 2 or not can_fork():
        if first is not None:
            first()
        return [function(item) for item in items]
    import mmap
    import pickle
    import struct

    claims = mmap.mmap(-1, 8)  # shared: [next job of the parent, lowest job the child took]
    struct.pack_into("ii", claims, 0, 0, len(items))
    read_end, write_end = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: from the back, until it meets the parent
        os.close(read_end)
        try:
            done: dict[int, Any] = {}
            job = len(items) - 1
            while job >= struct.unpack_from("i", claims, 0)[0]:
                struct.pack_into("i", claims, 4, job)
                done[job] = function(items[job])
                job -= 1
            payload = pickle.dumps(done, protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException:  # noqa: BLE001 (whatever happened, the parent computes what is missing)
            payload = b""
        try:
            with os.fdopen(write_end, "wb") as stream:
                stream.write(payload)
        finally:
            os._exit(0)
    os.close(write_end)
    results: list[Any] = [_MISSING] * len(items)
    try:
        if first is not None:
            first()
        job = 0
        while job < struct.unpack_from("i", claims, 4)[0]:
            struct.pack_into("i", claims, 0, job + 1)
            results[job] = function(items[job])
            job += 1
    finally:
        with os.fdopen(read_end, "rb") as stream:
            payload = stream.read()
        os.waitpid(pid, 0)
        claims.close()
    if payload:
        for job, value in pickle.loads(payload).items():
            if results[job] is _MISSING:
                results[job] = value
    return [
        function(items[job]) if value is _MISSING else value for job, value in enumerate(results)
    ]
