"""Balanced dataset splits: a seeded search, no Django.

Every topic goes to one split; each split gets its share of the topics (the ratios, rounded
by largest remainder). Within that constraint the search balances a quantity measured per
topic (links of each type, clusters or mentions): for every split s and every dimension d,
the split's share of d, `sum_s(d) / total(d)`, should equal its share of topics, `n_s / n`.
The objective is the largest such deviation (then the sum of squared deviations, so that
ties still move towards balance). Random restarts, each a shuffle followed by swaps of two
topics between splits that are kept when they lower the objective. The random generator is
seeded by the caller: the same seed and input always give the same split.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

RESTARTS = 8


@dataclass(frozen=True)
class SplitResult:
    assignment: list[int]  # per topic, the index of its split
    deviation: float  # the largest |share of a quantity - share of topics| over splits and dims
    sizes: list[int]


def split_sizes(n: int, ratios: Sequence[float]) -> list[int]:
    """Topics per split: `n * ratio` rounded by largest remainder (ties to the earlier split)."""
    total = sum(ratios)
    exact = [n * r / total for r in ratios]
    sizes = [int(x) for x in exact]
    order = sorted(range(len(ratios)), key=lambda i: (-(exact[i] - sizes[i]), i))
    for i in order[: n - sum(sizes)]:
        sizes[i] += 1
    return sizes


def balanced_split(
    weights: Sequence[Sequence[float]],
    ratios: Sequence[float],
    *,
    seed: int,
    restarts: int = RESTARTS,
    steps: int | None = None,
) -> SplitResult:
    """Assign topic i (weights[i]: its quantities, one per dimension) to a split."""
    n = len(weights)
    sizes = split_sizes(n, ratios)
    dims = len(weights[0]) if n else 0
    totals = [sum(w[d] for w in weights) for d in range(dims)]
    live = [d for d in range(dims) if totals[d] > 0]
    shares = [size / n if n else 0.0 for size in sizes]
    rng = random.Random(seed)
    steps = steps if steps is not None else max(2000, 20 * n)
    best: tuple[tuple[float, float], list[int]] | None = None
    for _ in range(max(1, restarts)):
        order = list(range(n))
        rng.shuffle(order)
        assignment = [0] * n
        start = 0
        for s, size in enumerate(sizes):
            for i in order[start : start + size]:
                assignment[i] = s
            start += size
        sums = [[0.0] * dims for _ in sizes]
        for i, s in enumerate(assignment):
            for d in live:
                sums[s][d] += weights[i][d]
        score = _objective(sums, totals, shares, live)
        if n > 1 and len([size for size in sizes if size]) > 1:
            for _ in range(steps):
                if score[0] == 0.0:
                    break
                i, j = rng.randrange(n), rng.randrange(n)
                a, b = assignment[i], assignment[j]
                if a == b:
                    continue
                _move(sums, weights, i, a, b, live)
                _move(sums, weights, j, b, a, live)
                candidate = _objective(sums, totals, shares, live)
                if candidate < score:
                    score = candidate
                    assignment[i], assignment[j] = b, a
                else:
                    _move(sums, weights, i, b, a, live)
                    _move(sums, weights, j, a, b, live)
        if best is None or score < best[0]:
            best = (score, assignment)
    assert best is not None
    # Rounded so that the figure reads the same on every machine.
    return SplitResult(best[1], round(best[0][0], 6), sizes)


def share_deviations(
    weights: Sequence[Sequence[float]], assignment: Sequence[int], splits: int
) -> list[list[float | None]]:
    """Per split and dimension, share of the quantity minus share of topics (None where the
    quantity is 0 everywhere): what a caller reports and a test checks."""
    n = len(weights)
    dims = len(weights[0]) if n else 0
    totals = [sum(w[d] for w in weights) for d in range(dims)]
    table: list[list[float | None]] = []
    for s in range(splits):
        members = [i for i in range(n) if assignment[i] == s]
        row: list[float | None] = []
        for d in range(dims):
            if not totals[d]:
                row.append(None)
                continue
            row.append(sum(weights[i][d] for i in members) / totals[d] - len(members) / n)
        table.append(row)
    return table


def _move(
    sums: list[list[float]], weights: Sequence[Sequence[float]], i: int, a: int, b: int, live
) -> None:
    for d in live:
        sums[a][d] -= weights[i][d]
        sums[b][d] += weights[i][d]


def _objective(
    sums: list[list[float]], totals: list[float], shares: list[float], live: list[int]
) -> tuple[float, float]:
    worst = 0.0
    squares = 0.0
    for s, share in enumerate(shares):
        for d in live:
            deviation = abs(sums[s][d] / totals[d] - share)
            worst = max(worst, deviation)
            squares += deviation * deviation
    return (worst, squares)
