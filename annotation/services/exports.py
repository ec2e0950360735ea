"""Export a project's annotations in any format the readers know, plus CoNLL-2012.

Sources: by default each topic's gold (`selectors.gold`: its latest submitted adjudication,
else its imported gold), `gold` (the imported gold only), `adjudicated` (each topic's latest
submitted adjudication), `submitted` (every annotator's submitted
annotations, one output per annotator under OUT, named after the username), `all` (every
assignment's annotation whatever its status, one output per user) or a username (that user's
annotations, one output). An output is a file for scico/chemu/conll and a folder for
brat/corefi. Only topics that have the chosen annotation are written.

File names come from data (usernames, topic ids of folder formats), so each is made safe
(`safe_file_name`) and checked to stay inside its folder before anything is written.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

from django.contrib.auth import get_user_model

from annotation import gates
from annotation.errors import ExportRefused
from annotation.infra.file_names import path_inside, unique_file_names
from annotation.models import Annotation, Project
from annotation.selectors import gold
from annotation.selectors.topic_data import annotations_topic_data
from annotation.validation_hooks import ExportLines, validated_export
from corefscore.corpus import TopicData
from corefscore.formats import FORMATS, WRITERS, FormatWarning, write

SOURCES = ("gold", "adjudicated", "submitted", "all")


@dataclass
class Written:
    path: Path
    topics: int
    warnings: list[FormatWarning] = field(default_factory=list)

    def __str__(self) -> str:
        return f"wrote {self.path} ({self.topics} topic(s), {len(self.warnings)} warning(s))"


@dataclass
class ExportResult:
    source: str
    written: list[Written] = field(default_factory=list)

    def lines(self) -> list[str]:
        lines = [f"source: {self.source}"]
        for item in self.written:
            lines.append(str(item))
            lines += [f"warning: {warning}" for warning in item.warnings]
        return lines


def annotations_export(
    *,
    project: Project,
    format: str,
    out: str | Path,
    source: str | None = None,
    split: str | None = None,
    keep_rejected: bool = False,
) -> ExportResult | ExportLines:
    """`split`: only the topics of that dataset split (Topic.split). A validation project
    exports its validated clusters (validation/services/export.py), rejected
    mentions removed or, with `keep_rejected`, kept and flagged."""
    if project.validation:
        return validated_export(
            project=project,
            format=format,
            out=out,
            source=source,
            split=split,
            keep_rejected=keep_rejected,
        )
    if format not in WRITERS:
        raise ExportRefused(f"unknown format {format!r}; use one of {', '.join(WRITERS)}")
    if source is None:  # each topic's gold: its latest submitted adjudication, else imported gold
        source = _default_source(project)
    out = Path(out)
    result = ExportResult(source=source)
    if source in ("submitted", "all"):
        by_user = _per_user(project, submitted_only=source == "submitted")
        by_user = {u: _in_split(a, split) for u, a in by_user.items() if _in_split(a, split)}
        if not by_user:
            raise ExportRefused(
                f"project '{project.name}' has no {'submitted ' if source == 'submitted' else ''}"
                "annotations to export"
            )
        if out.exists() and not out.is_dir():
            raise ExportRefused(f"{out} is a file; per-annotator exports need a folder")
        names = unique_file_names(by_user)
        for username, annotations in by_user.items():
            name = names[username]
            target = path_inside(
                out, name if FORMATS[format].folder else f"{name}{FORMATS[format].extension}"
            )
            result.written.append(_write(project, annotations, format, target))
        return result
    annotations = _in_split(_single_source(project, source), split)
    if not annotations:
        where = f" in split {split!r}" if split is not None else ""
        raise ExportRefused(
            f"project '{project.name}' has no {source} annotations{where} to export"
        )
    result.written.append(_write(project, annotations, format, out))
    return result


def _write(project: Project, annotations: list[Annotation], format: str, target: Path) -> Written:
    data = annotations_topic_data(annotations)
    topics = [data[a.pk] for a in annotations]
    if FORMATS[format].folder:
        topics = _safe_topic_file_names(topics)
    options = (
        {"chains_from_links": project.anaphora and not project.hierarchy}
        if format == "conll"
        else {}
    )
    if FORMATS[format].folder:
        target.mkdir(parents=True, exist_ok=True)
    return Written(target, len(topics), write(format, topics, target, **options))


def _safe_topic_file_names(topics: list[TopicData]) -> list[TopicData]:
    """Folder formats name each topic's files after its id: ids that are not safe file names
    (or that clash once made safe) are replaced by safe ones for the export."""
    names = unique_file_names(topic.external_id for topic in topics)
    return [
        topic
        if names[topic.external_id] == topic.external_id
        else replace(topic, external_id=names[topic.external_id])
        for topic in topics
    ]


def _in_split(annotations: list[Annotation], split: str | None) -> list[Annotation]:
    return annotations if split is None else [a for a in annotations if a.topic.split == split]


def _gold(project: Project):
    return Annotation.objects.filter(topic__project=project, kind=Annotation.Kind.GOLD).exclude(
        topic_id__in=gates.practice_topic_ids(project.pk)
    )


def _ordered(queryset, project: Project) -> list[Annotation]:
    """In topic order, practice topics left out (the practice gate: annotation/gates.py)."""
    queryset = queryset.exclude(topic_id__in=gates.practice_topic_ids(project.pk))
    return list(queryset.select_related("topic").order_by("topic__position", "topic_id"))


DEFAULT_SOURCE = "adjudicated, else gold"


def _default_source(project: Project) -> str:
    adjudicated = bool(gold.adjudicated_annotations(project))
    imported = _gold(project).exists()
    if adjudicated and imported:
        return DEFAULT_SOURCE
    return "adjudicated" if adjudicated or not imported else "gold"


def _by_topic_order(chosen: dict[int, Annotation]) -> list[Annotation]:
    return sorted(chosen.values(), key=lambda a: (a.topic.position, a.topic_id))


def _single_source(project: Project, source: str) -> list[Annotation]:
    if source == "gold":
        return _ordered(_gold(project), project)
    if source == "adjudicated":
        return _by_topic_order(gold.adjudicated_annotations(project))
    if source == DEFAULT_SOURCE:
        return _by_topic_order(gold.gold_annotations(project))
    user = get_user_model().objects.filter(username=source).first()
    if user is None:
        raise ExportRefused(
            f"no source or user named {source!r}; sources: {', '.join(SOURCES)} or a username"
        )
    return _ordered(
        Annotation.objects.filter(topic__project=project, assignment__user=user), project
    )


def _per_user(project: Project, *, submitted_only: bool) -> dict[str, list[Annotation]]:
    annotations = Annotation.objects.filter(topic__project=project, assignment__isnull=False)
    if submitted_only:
        annotations = annotations.submitted().annotator_work()
    by_user: dict[str, list[Annotation]] = defaultdict(list)
    for annotation in _ordered(annotations.select_related("assignment__user"), project):
        by_user[annotation.assignment_of_work.user.get_username()].append(annotation)
    return dict(sorted(by_user.items()))
