"""Which of a run's suggestions to put to the annotator as questions first (docs/questions.md).

A question is one open suggestion asked on its own: "is this mention the same concept as that
cluster?" (a membership), "is this cluster a kind of that one?" (an edge), "does this anaphor
refer to that antecedent, and how?" (a link). The most uncertain come first: a question whose
answer the model already knows well saves the annotator little when asked, one it cannot call
saves the most.

Pure arithmetic over scores, no Django: the workspace (through the suggestions payload) and
`python -m bench learning` rank with the same functions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# Every backend's scores are probabilities or similarities in [0, 1]; even odds is where a
# yes/no decision is hardest. (The backends' own thresholds differ by backend and are tuned on
# held-out data; the stored suggestions are those the model made, so near 0.5 among them is
# near the decision that made them.)
EVEN = 0.5

# The order among equally uncertain questions: clusters first (they decide most), then the
# hierarchy, then links.
KIND_ORDER = ("membership", "edge", "link")


def binary_uncertainty(score: float, threshold: float = EVEN) -> float:
    """1 at the threshold, falling linearly to 0 at 0 and at 1 (each side scaled to its own
    length, so a threshold off the middle still spans [0, 1])."""
    score = min(1.0, max(0.0, float(score)))
    side = threshold if score < threshold else 1.0 - threshold
    if side <= 0.0:
        return 0.0
    return max(0.0, 1.0 - abs(score - threshold) / side)


def entropy_bits(probabilities: Iterable[float]) -> float:
    """Shannon entropy in bits of the distribution (the scores are normalised first): 0 when
    one option has it all, 1 for an even split between two, more for more options."""
    values = [max(0.0, float(p)) for p in probabilities]
    total = sum(values)
    if total <= 0.0:
        return 0.0
    return -sum((p / total) * math.log2(p / total) for p in values if p > 0.0)


def uncertainty(kind: str, score: float, type_scores: Mapping[str, float] | None = None) -> float:
    """How unsure the model is of one suggestion, in [0, 1].

    A membership's score is the mention's mean pair probability (similarity) against the other
    members of its suggested cluster, so the cluster-level question is scored by that mean.
    A link with the type distribution the model gave (no link included) is scored by the
    larger of that distribution's entropy in bits (capped at 1: an even split between two
    options is as unsure as a score of 0.5) and the yes/no closeness of the chosen type: a
    link the model is sure exists but not of which type is worth asking too."""
    binary = binary_uncertainty(score)
    if kind == "link" and type_scores:
        return round(max(binary, min(1.0, entropy_bits(type_scores.values()))), 6)
    return round(binary, 6)


@dataclass(frozen=True)
class Candidate:
    """One open suggestion that could be asked."""

    suggestion: int
    kind: str
    score: float
    uncertainty: float


def rank(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Most uncertain first; ties by kind (`KIND_ORDER`), then the lower score (nearer the
    no side), then the suggestion id, so the order is total and the same everywhere."""

    def key(c: Candidate) -> tuple[float, int, float, int]:
        kind = KIND_ORDER.index(c.kind) if c.kind in KIND_ORDER else len(KIND_ORDER)
        return (-c.uncertainty, kind, c.score, c.suggestion)

    return sorted(candidates, key=key)
