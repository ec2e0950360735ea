"""Learning in the loop, the pure part (docs/learning.md): which topics are held out, which
annotation of a topic teaches, the one figure a version is judged by, and which version serves.

No Django, no clock, no settings: the services pass everything in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

# The backend learning trains, by what the project annotates (and, for clusters, by the
# backend the admin chose: a cross-encoder project fine-tunes its cross-encoder).
CHEMU = "chemu"
SCICO_LEARNERS = ("trained", "cross-encoder")


def learner_for(*, anaphora: bool, configured_backend: str) -> str:
    if anaphora:
        return CHEMU
    return configured_backend if configured_backend in SCICO_LEARNERS else "trained"


def held_out(topic_key: str, *, percent: int, seed: int = 0) -> bool:
    """Whether a topic is held out: a seeded hash of its stable key, so a topic never moves
    between training and held-out as more topics come in (a shuffle would move them)."""
    digest = hashlib.sha256(f"{seed}:{topic_key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 100 < percent


@dataclass(frozen=True)
class Submitted:
    """One submitted annotation of a topic."""

    annotation_id: int
    user_id: int | None
    adjudication: bool
    submitted_order: int  # smaller: submitted earlier


def teaching_annotation(versions: Sequence[Submitted], *, topic_key: str) -> int | None:
    """The annotation that stands for a topic in training and on held-out, or None.

    An adjudication replaces the annotators' versions (the newest adjudication wins). Without
    one, the topic still counts once, whatever the number of annotators: one of their versions
    is drawn by a seeded hash of the topic, so over many topics each annotator's version of a
    topic with n versions counts with weight 1/n, and a topic keeps its draw as others come in
    (a retraining is not moved by a reshuffle)."""
    adjudications = [v for v in versions if v.adjudication]
    if adjudications:
        return max(adjudications, key=lambda v: v.submitted_order).annotation_id
    if not versions:
        return None
    ordered = sorted(versions, key=lambda v: (v.user_id or 0, v.annotation_id))
    digest = hashlib.sha256(f"teach:{topic_key}".encode()).digest()
    return ordered[int.from_bytes(digest[:8], "big") % len(ordered)].annotation_id


# The figure a version is judged by, per backend (held-out, micro over topics).
METRICS = {
    "trained": ("conll_f1", "CoNLL F1"),
    "cross-encoder": ("conll_f1", "CoNLL F1"),
    "chemu": ("relation_f1", "exact relation F1"),
}


def primary_score(backend: str, scores: dict[str, Any] | None) -> float | None:
    if not scores:
        return None
    key, _ = METRICS[backend]
    value = scores.get(key)
    return None if value is None else float(value)


def is_not_worse(score: float | None, previous: float | None) -> bool:
    """Not worse than what served when the version was trained, on the same held-out
    topics: only a figure on each side can show it (no held-out topic shows nothing)."""
    if score is None or previous is None:
        return False
    return score >= previous


def topics_text(count: int) -> str:
    return f"{count} held-out topic{'' if count == 1 else 's'}"


@dataclass(frozen=True)
class Verdict:
    """Whether a version may serve without an admin choosing it, and why (the Suggestions
    page shows `reason`)."""

    eligible: bool
    reason: str


def eligibility(
    *,
    holdout_topics: int,
    min_holdout: int,
    degenerate: str,
    score: float | None,
    previous_score: float | None,
    compared_with: str,
) -> Verdict:
    """A version serves only when shown not worse than what serves now (`compared_with`, the
    base model or a version) on enough held-out topics, and never when its held-out
    suggestions are degenerate (docs/learning.md says why the minimum is what it is)."""
    if holdout_topics < min_holdout:
        reason = f"{topics_text(holdout_topics)}, not eligible (at least {min_holdout} needed)"
        if degenerate:  # both said: adding topics alone would not make it serve
            reason += f"; {degenerate} there: never eligible"
        return Verdict(False, reason)
    if degenerate:
        return Verdict(False, f"{degenerate} on the held-out topics: never eligible")
    if score is None or previous_score is None:
        return Verdict(False, f"not scored beside {compared_with} on the same topics: not eligible")
    if score < previous_score:
        return Verdict(
            False,
            f"held-out {score:.3f} below {compared_with}'s {previous_score:.3f} on the same "
            f"{topics_text(holdout_topics)}: not eligible",
        )
    return Verdict(
        True,
        f"held-out {score:.3f}, not below {compared_with}'s {previous_score:.3f} on the same "
        f"{topics_text(holdout_topics)}: eligible",
    )


@dataclass(frozen=True)
class VersionView:
    id: int
    number: int
    eligible: bool


def serving_version(
    versions: Sequence[VersionView], *, pinned: int | None = None, base: bool = False
) -> int | None:
    """The id of the version runs use, None for the base model: the base when an admin
    chose it, else the pinned version (an admin's rollback or roll forward), else the newest
    eligible one; none eligible, the base model serves."""
    if base:
        return None
    if pinned is not None and any(v.id == pinned for v in versions):
        return pinned
    for version in sorted(versions, key=lambda v: v.number, reverse=True):
        if version.eligible:
            return version.id
    return None


def run_params(backend: str, folder: str, *, mentions_folder: str | None) -> dict[str, Any]:
    """What a run passes the backend to use a version saved in `folder`."""
    if backend == CHEMU:
        params: dict[str, Any] = {"model_dir": folder}
        if mentions_folder:
            params["mentions_dir"] = mentions_folder
        return params
    if backend == "cross-encoder":
        return {"model_path": folder}
    return {"model_dir": folder}


def with_base(team: Sequence[T], base: Sequence[T], *, weight: int) -> list[T]:
    """A retraining's training set when it starts from what the default model learnt: the
    base topics once, then the team's own topics `weight` times, so that where the team's
    conventions differ from the base's, the team's win. (bench/learning.py: retraining on the
    team's work alone needed 63 % of the by-hand decisions by ChEMU topic 100, worse than the
    static model's 55 %; with the base and weight 2, 43 %.)"""
    if weight < 1:
        raise ValueError(f"the team's weight must be at least 1, not {weight}")
    return [*base, *(list(team) * weight)]


def mention_epochs_within(epochs: int, budget: int, documents: int) -> int:
    """The tagger's epochs in a retraining on `documents` snippets: `epochs`, or fewer where
    epochs x documents would pass `budget` (document passes), and at least one.

    Why a budget: a ChEMU retraining starts from the default model's ~900 snippets and adds
    the team's work twice, so a fixed number of epochs would make each retraining slower than
    the last as the project grows; the loop has to stay under 3 minutes on 2 cores. With
    more documents an epoch also carries more of them, so fewer epochs lose little
    (docs/learning.md has the held-out check)."""
    if epochs < 1 or budget < 1:
        raise ValueError(f"epochs ({epochs}) and the budget ({budget}) must be at least 1")
    return max(1, min(epochs, budget // max(1, documents)))


def text_key(documents: Sequence[Sequence[str]]) -> str:
    """One topic's text as a key (its documents' tokens), so that a base topic the project
    also holds, under whatever id, is left out of the base: a held-out topic must not be
    trained on through the base."""
    digest = hashlib.sha256()
    for tokens in documents:
        digest.update("\x1f".join(tokens).encode())
        digest.update(b"\x1e")
    return digest.hexdigest()
