"""Scoring from files or from topics: :func:`score` and :func:`iaa`, what ``import
corefscore`` offers as ``corefscore.score`` / ``corefscore.iaa`` (like coval's API), and what
``python -m corefscore score|iaa`` runs.

Each takes file paths (read by :mod:`corefscore.scoring.files`) or topics already read
(``TopicData`` from :func:`corefscore.read`, or the scorers' :class:`TopicAnnotation`), and
returns what the command line prints with ``--json``. The scores themselves are
:mod:`corefscore.scoring.api`'s; this module only reads files and picks the scorer.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from corefscore.corpus import TopicData
from corefscore.scoring import api, granularity
from corefscore.scoring.files import SCHEMES, InputError, read_topics
from corefscore.scoring.plain import ScoringInputError, TopicAnnotation

Topic = TopicData | TopicAnnotation
PathLike = str | os.PathLike[str]
Source = PathLike | Sequence[Topic]
Note = Callable[[str], None]

__all__ = ["InputError", "iaa", "score", "score_topics"]


def score(
    gold: Source,
    system: Source,
    *,
    format: str,
    keep_singletons: bool = False,
    hierarchy_count: str = "closure",
    intervals: bool = False,
    per_topic: bool = False,
    topic_ids: Sequence[str] | None = None,
    subset: str | None = None,
    level: str = "topic",
    cluster_ids: str = "per-topic",
    note: Note | None = None,
) -> dict[str, Any]:
    """Score ``system`` against ``gold`` (each a file path or a list of topics), topics
    matched by id; ``format`` is ``"scico"`` (coreference, mention detection, hierarchy, path
    ratio) or ``"chemu"`` (anaphora relations, anaphors, mention detection).

    Returns the object ``python -m corefscore score --json`` prints (docs/scoring.md):
    ``keep_singletons`` keeps singleton clusters in the coreference metrics;
    ``hierarchy_count="raw"`` counts hierarchy F1 over the raw edges rather than SciCo's
    transitive closure; ``intervals`` adds 95% bootstrap intervals over topics (``f1_ci``;
    needs numpy). Scoping, which adds ``"scope"``: ``topic_ids`` (or ``subset``, a SciCo
    gold file's boolean topic field such as ``"hard_10"``) scores only those gold topics;
    ``level="corpus"`` scores all topics as one document, their cluster ids read as
    ``cluster_ids`` says; ``per_topic`` adds a row per topic. ``note`` is told what a file
    holds that is not scored (ChEMU-Ref links with an empty side).

    Raises :class:`InputError` for a file that cannot be read or topics that cannot be
    scored (the message names the file, line and field, or the topic)."""
    if subset is not None and topic_ids is not None:
        raise ValueError("give topic_ids or subset, not both")
    flags: dict[str, Any] | None = None
    if subset is not None:
        if format != "scico" or not isinstance(gold, (str, os.PathLike)):
            raise ValueError("subset reads the topic flags of a SciCo gold file: give its path")
        flags = {}
    gold_topics = _topics(gold, format, flags=flags, field=subset, note=note)
    system_topics = _topics(system, format, note=note)
    return score_topics(
        format,
        gold_topics,
        system_topics,
        names=(_name(gold, "the gold"), _name(system, "the system")),
        keep_singletons=keep_singletons,
        hierarchy_count=hierarchy_count,
        intervals=intervals,
        per_topic=per_topic,
        topic_ids=topic_ids,
        flags=flags,
        subset=subset,
        level=level,
        cluster_ids=cluster_ids,
    )


def score_topics(
    format: str,
    gold: Sequence[Topic],
    system: Sequence[Topic],
    *,
    names: tuple[str, str],
    keep_singletons: bool,
    hierarchy_count: str,
    intervals: bool,
    per_topic: bool,
    topic_ids: Sequence[str] | None,
    flags: dict[str, Any] | None,
    subset: str | None,
    level: str,
    cluster_ids: str,
) -> dict[str, Any]:
    """:func:`score` once the files are read (the command line's way in): the scoped scorer
    where a scope is asked for, else the plain one; ``flags`` (topic id -> the gold's
    ``subset`` field) pick the topics. ``names`` say gold and system in an error."""
    scoped = per_topic or topic_ids is not None or flags is not None or level != "topic"
    options: dict[str, Any] = {
        "keep_singletons": keep_singletons,
        "hierarchy_count": hierarchy_count,
    }
    try:
        if scoped:
            if flags is not None and subset is not None:
                topic_ids = granularity.flagged(flags, subset)
            return api.score_scoped(
                format,
                gold,
                system,
                level=level,
                per_topic=per_topic,
                topic_ids=topic_ids,
                intervals=intervals,
                cluster_ids=cluster_ids,
                **(options if format == "scico" else {}),
            )
        if format == "scico":
            return api.score_scico(gold, system, intervals=intervals, **options)
        return api.score_chemu(gold, system, intervals=intervals)
    except ScoringInputError as error:
        raise InputError(f"cannot score {names[0]} against {names[1]}: {error}") from None


def iaa(
    annotators: Sequence[Source],
    *,
    format: str,
    names: Sequence[str] | None = None,
    keep_singletons: bool = False,
    hierarchy_count: str = "closure",
    intervals: bool = False,
    note: Note | None = None,
) -> dict[str, Any]:
    """Agreement between annotators, one file path (or list of topics) each: every pair on
    every topic both submitted, and the aggregates (AVG, MAX, MAX-micro, MAX-macro).

    Returns the object ``python -m corefscore iaa --json`` prints: ``{"topics", "overall",
    "unscored_topics"}``; pairs are "1-2" (positions) or "a-b" with ``names``. Options as
    :func:`score`. Raises :class:`InputError` as :func:`score` does."""
    if len(annotators) < 2:
        raise InputError("agreement needs at least two annotators (a file each)")
    if names is not None and len(names) != len(annotators):
        raise InputError(f"{len(names)} names for {len(annotators)} annotators")
    topics = [_topics(source, format, note=note) for source in annotators]
    try:
        return api.iaa(
            topics,
            scheme=format,
            names=names,
            keep_singletons=keep_singletons,
            hierarchy_count=hierarchy_count,
            intervals=intervals,
        )
    except ScoringInputError as error:
        raise InputError(f"cannot compute agreement: {error}") from None


def _topics(
    source: Source,
    format: str,
    *,
    flags: dict[str, Any] | None = None,
    field: str | None = None,
    note: Note | None = None,
) -> Sequence[Topic]:
    if format not in SCHEMES:
        raise ValueError(f"format must be one of {', '.join(SCHEMES)}, not {format!r}")
    if isinstance(source, (str, os.PathLike)):
        return read_topics(source, format, flags=flags, field=field, note=note)
    return source


def _name(source: Source, side: str) -> str:
    return os.fspath(source) if isinstance(source, (str, os.PathLike)) else side
