"""`BENCH_SMOKE=1`: every benchmark once, at a tiny size, so that none can rot unnoticed
(tests/bench/test_benchmarks_run.py runs them all). A smoke run's figures mean nothing and
its goals are not checked: it passes when the benchmark runs to its end."""

from __future__ import annotations

import os
from typing import TypeVar

T = TypeVar("T")

SMOKE = os.environ.get("BENCH_SMOKE") == "1"


def size(full: T, tiny: T) -> T:
    """`full` in a real run, `tiny` in a smoke run."""
    return tiny if SMOKE else full


def verdict(goals_met: bool) -> int:
    """The exit code: 1 when a real run misses a goal; a smoke run checks none."""
    return 0 if goals_met or SMOKE else 1
