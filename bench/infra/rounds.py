"""A and B interleaved, several rounds; the ratio per round and its median."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def per_call_us(call: Callable[[], object], calls: int) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        call()
    return (time.perf_counter() - started) / calls * 1e6


def interleaved(
    label: str, a: tuple[str, Callable[[], float]], b: tuple[str, Callable[[], float]], rounds=7
) -> float:
    """Runs a() and b() (each returns a figure, lower is better) alternately, A first in odd
    rounds and B first in even ones; prints every round and returns the median of B / A."""
    ratios = []
    print(f"{label}: {a[0]} (A) against {b[0]} (B)")
    for round_ in range(rounds):
        order = (a, b) if round_ % 2 == 0 else (b, a)
        figures = {name: run() for name, run in order}
        ratio = figures[b[0]] / figures[a[0]]
        ratios.append(ratio)
        first, second = figures[a[0]], figures[b[0]]
        print(f"  round {round_ + 1}: A {first:10.2f}   B {second:10.2f}   B/A {ratio:.2f}")
    median = statistics.median(ratios)
    print(f"  median B/A {median:.2f}")
    return median
