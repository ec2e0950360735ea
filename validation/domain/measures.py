"""Measures of validation work, pure: Cohen's kappa on accept/reject, precision and recall
against a consolidated validation, and active time with an idle cap.

No scikit-learn (not a dependency): kappa is two lines of arithmetic, written out here and
tested against a hand-computed case.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Cohen's kappa of two raters over `pairs` of labels (here "accepted"/"rejected").

    kappa = (p_o - p_e) / (1 - p_e): observed agreement p_o, chance agreement p_e from each
    rater's own label frequencies. None when it is undefined: no pairs, or both raters gave one
    and the same label throughout (p_e = 1)."""
    n = len(pairs)
    if n == 0:
        return None
    labels = {label for pair in pairs for label in pair}
    observed = sum(a == b for a, b in pairs) / n
    expected = sum(
        (sum(a == label for a, _ in pairs) / n) * (sum(b == label for _, b in pairs) / n)
        for label in labels
    )
    if expected == 1:
        return None
    return (observed - expected) / (1 - expected)


@dataclass(frozen=True)
class PrecisionRecall:
    """Of a validator's accepted mentions, the share the consolidated validation accepts
    (precision); of those it accepts, the share the validator accepted (recall)."""

    precision: float | None
    recall: float | None
    f1: float | None
    mentions: int


def precision_recall(pairs: Iterable[tuple[str, str]]) -> PrecisionRecall:
    """`pairs`: (the validator's decision, the consolidated decision) per mention both made;
    the positive class is "accepted" (a valid mention), as in WEC's quality check."""
    true_positive = validator_accepts = consolidated_accepts = mentions = 0
    for mine, reference in pairs:
        mentions += 1
        validator_accepts += mine == "accepted"
        consolidated_accepts += reference == "accepted"
        true_positive += mine == reference == "accepted"
    precision = true_positive / validator_accepts if validator_accepts else None
    recall = true_positive / consolidated_accepts if consolidated_accepts else None
    f1 = (
        2 * precision * recall / (precision + recall)
        if precision is not None and recall is not None and precision + recall > 0
        else None
    )
    return PrecisionRecall(precision, recall, f1, mentions)


def active_seconds(times: Iterable[Iterable[datetime]], cap: float) -> float:
    """Working time: within each sequence (one annotation's operations, in order), the sum of
    the gaps between consecutive operations, each capped at `cap` seconds (a longer pause is a
    break, not work): the progress matrix's rule."""
    total = 0.0
    for sequence in times:
        for before, after in pairwise(sequence):
            total += min((after - before).total_seconds(), cap)
    return total


def elapsed_seconds(times: Iterable[Iterable[datetime]]) -> float:
    """Elapsed time: within each sequence, from its first operation to its last, pauses
    included (no cap). WEC's "valid mentions per hour" (section 3.3) divides by such wall-clock
    time, so only a rate over it compares with their 350; the capped active time reads higher."""
    total = 0.0
    for sequence in times:
        moments = list(sequence)
        if len(moments) > 1:
            total += (moments[-1] - moments[0]).total_seconds()
    return total


# Below a minute of active time an hourly rate says nothing (seven scripted decisions in two
# seconds read as 12,600 an hour): the report shows no rate instead.
MIN_RATE_SECONDS = 60.0


def per_hour(count: int, seconds: float) -> float | None:
    return count * 3600 / seconds if seconds >= MIN_RATE_SECONDS else None
