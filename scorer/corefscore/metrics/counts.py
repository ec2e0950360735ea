"""Numerators and denominators, and the P/R/F1 arithmetic every scorer shares.

A metric's result for one topic is a :class:`Counts`; micro averages over topics add the
counts (numerators with numerators, denominators with denominators) and only then divide,
as coval's ``Evaluator.update`` and SciCo's ``compute_micro_average_scores`` do.

Conventions (all four reference scorers agree): a ratio with a zero denominator is 0, and F1
is 0 when P + R is 0. The arithmetic is written in the scorers' own order of operations so
that the floats are identical, not merely close: coval ``f1`` computes
``(1 + beta * beta) * p * r / (beta * beta * p + r)``, which for beta = 1 rounds exactly like
``2 * p * r / (p + r)`` (multiplying by 1 or 2 is exact in binary floating point).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, 0.0 when the denominator is 0 (coval, SciCo, BRATEval)."""
    return numerator / denominator if denominator else 0.0


def f1_score(precision: float, recall: float) -> float:
    """Harmonic mean, 0.0 when both are 0 (coval ``f1``, BRATEval ``report``)."""
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def sequential_sum(values: Iterable[float], start: float = 0) -> float:
    """Left-to-right sum from ``start``, as the scorers' ``total += x`` loops do.

    Up to Python 3.11 the built-in ``sum`` is exactly that loop, in C; Python 3.12 made its
    sum of floats compensated, which would differ from the reference scorers in the last
    digit, so there the explicit loop runs.
    """
    if _SUM_IS_SEQUENTIAL:
        return sum(values, start)
    total = start
    for value in values:
        total += value
    return total


_SUM_IS_SEQUENTIAL = sys.version_info < (3, 12)


def numpy_sum(values: Sequence[float]) -> float:
    """``float(numpy.asarray(values, dtype=numpy.float64).sum())`` to the last bit, without
    numpy (whose import costs the command line more than its whole computation): numpy adds
    a 1-D float array to its identity 0.0 by pairwise summation (``DOUBLE_pairwise_sum``,
    numpy/_core/src/umath/loops_utils.h.src): fewer than 8 values left to right from -0.0;
    up to 128 in 8 interleaved partial sums combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5)
    + (r6 + r7)), then the remainder; more: the two halves (the first a multiple of 8 long)
    summed so and added. Tested against numpy."""
    values = [float(value) for value in values]
    return 0.0 + _pairwise(values, 0, len(values))


def _pairwise(values: list[float], start: int, n: int) -> float:
    if n < 8:
        return sequential_sum(values[start : start + n], -0.0)
    if n <= 128:
        end = start + n - n % 8
        r = [sequential_sum(values[start + k + 8 : end : 8], values[start + k]) for k in range(8)]
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        return sequential_sum(values[end : start + n], total)
    half = n // 2
    half -= half % 8
    return _pairwise(values, start, half) + _pairwise(values, start + half, n - half)


@dataclass(frozen=True, slots=True)
class Counts:
    """Precision numerator/denominator and recall numerator/denominator of one metric."""

    p_num: float = 0
    p_den: float = 0
    r_num: float = 0
    r_den: float = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.p_num + other.p_num,
            self.p_den + other.p_den,
            self.r_num + other.r_num,
            self.r_den + other.r_den,
        )

    @classmethod
    def from_tp(cls, tp: int, n_key: int, n_response: int) -> Counts:
        """BRATEval's TP/FP/FN: precision = TP / #response, recall = TP / #key."""
        return cls(tp, n_response, tp, n_key)

    @property
    def precision(self) -> float:
        return ratio(self.p_num, self.p_den)

    @property
    def recall(self) -> float:
        return ratio(self.r_num, self.r_den)

    @property
    def f1(self) -> float:
        # ratio and f1_score inlined (the agreement report computes this ~100,000 times at
        # 1,000 topics): the same operations in the same order, so the same floats
        p_den, r_den = self.p_den, self.r_den
        precision = self.p_num / p_den if p_den else 0.0
        recall = self.r_num / r_den if r_den else 0.0
        total = precision + recall
        return 2 * precision * recall / total if total else 0.0

    @property
    def defined(self) -> bool:
        """Whether either side counted something: with both denominators 0 the scores are
        undefined (metrics/undefined.py), though ``precision``, ``recall`` and ``f1`` give
        the reference scorers' 0."""
        return bool(self.p_den or self.r_den)

    def prf(self) -> dict[str, float | None]:
        """The JSON form: ``{"precision", "recall", "f1"}`` as plain floats, ``None`` each
        where undefined."""
        if not self.defined:
            return {"precision": None, "recall": None, "f1": None}
        return {
            "precision": float(self.precision),
            "recall": float(self.recall),
            "f1": float(self.f1),
        }


def add_counts(counts: Iterable[Counts]) -> Counts:
    """Micro average: add topic after topic, in order (coval ``Evaluator.update``)."""
    # (the fields added one by one, as Counts.__add__ does, without an object per step)
    p_num: float = 0
    p_den: float = 0
    r_num: float = 0
    r_den: float = 0
    for item in counts:
        p_num += item.p_num
        p_den += item.p_den
        r_num += item.r_num
        r_den += item.r_den
    return Counts(p_num, p_den, r_num, r_den)
