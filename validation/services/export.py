"""The validated clusters of a validation project, for export and for conversion.

A topic's validated clustering is its input clustering (the imported annotation) with each
mention's decision applied: rejected mentions are removed, or kept in their cluster and
flagged (`keep_rejected`). Whose decisions: by default each topic's consolidated validation
(the latest submitted adjudication's decisions, else, mention by mention, the decision every
submitted validator agrees on); or one validator's, by username. Undecided mentions stay.

Reasons and notes go into a side file, one JSON line per decided mention
(`<out>.validation.jsonl`, or `validation.jsonl` inside a folder output), and, in CoRefi JSON,
into each mention object too (`validation`, `reason`, `note`). docs/validation.md.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from annotation.errors import ExportRefused
from annotation.models import Annotation, Mention, Project, ValidationDecision
from annotation.selectors.topic_data import annotations_topic_data, mention_text
from corefscore.corpus import LinkData, MentionData, TopicData
from corefscore.formats import FORMATS, write


@dataclass(frozen=True)
class Verdict:
    decision: str
    reason: str
    note: str
    by: str


def _verdicts(project: Project, source: str | None) -> dict[int, dict[int, Verdict]]:
    """topic id -> mention id -> the decision to apply."""
    rows = ValidationDecision.objects.filter(annotation__topic__project=project)
    if source not in (None, "consolidated"):
        rows = rows.filter(annotation__assignment__user__username=source)
        if (
            not rows.exists()
            and not Annotation.objects.filter(
                topic__project=project, assignment__user__username=source
            ).exists()
        ):
            raise ExportRefused(
                f"no validator named {source!r} in project '{project.name}'; "
                "sources of a validation project: consolidated (the default) or a username"
            )
    else:
        # Consolidated: submitted validators' and adjudicators' decisions only.
        rows = rows.filter(annotation__in=Annotation.objects.submitted())
    adjudications = _latest_adjudications(project) if source in (None, "consolidated") else {}
    out: dict[int, dict[int, Verdict]] = defaultdict(dict)
    votes: dict[int, dict[int, list[Verdict]]] = defaultdict(lambda: defaultdict(list))
    for topic, annotation, kind, user, mention, decision, reason, note in rows.order_by(
        "annotation__assignment__user__username"
    ).values_list(
        "annotation__topic_id",
        "annotation_id",
        "annotation__kind",
        "annotation__assignment__user__username",
        "mention_id",
        "decision",
        "reason",
        "note",
    ):
        verdict = Verdict(decision, reason, note, user or "")
        if kind == Annotation.Kind.ADJUDICATION:
            if adjudications.get(topic) == annotation:
                out[topic][mention] = verdict
        else:
            votes[topic][mention].append(verdict)
    for topic, mentions in votes.items():
        for mention, verdicts in mentions.items():
            if mention not in out[topic] and len({v.decision for v in verdicts}) == 1:
                out[topic][mention] = verdicts[0]
    return out


def _latest_adjudications(project: Project) -> dict[int, int]:
    latest: dict[int, int] = {}
    for id, topic in (
        Annotation.objects.submitted()
        .adjudications()
        .of_project(project)
        .order_by("topic_id", "-assignment__submitted_at", "-id")
        .values_list("id", "topic_id")
    ):
        latest.setdefault(topic, id)
    return latest


def validated_topics(
    *,
    project: Project,
    source: str | None = None,
    keep_rejected: bool = False,
    split: str | None = None,
) -> tuple[list[TopicData], list[dict[str, Any]]]:
    """The validated TopicData of every topic (in project order), and the side file's lines."""
    inputs = list(
        Annotation.objects.filter(topic__project=project, kind=Annotation.Kind.GOLD)
        .select_related("topic")
        .order_by("topic__position", "topic_id")
    )
    if split is not None:
        inputs = [a for a in inputs if a.topic.split == split]
    verdicts = _verdicts(project, source)
    data = annotations_topic_data(inputs)
    ids: dict[int, list[int]] = defaultdict(list)
    for topic_id, id in (
        Mention.objects.filter(topic_id__in=[a.topic_id for a in inputs], added_in__isnull=True)
        .order_by("position", "id")
        .values_list("topic_id", "id")
    ):
        ids[topic_id].append(id)
    labels = {r["key"]: r["label"] for r in project.validation_reasons}
    topics: list[TopicData] = []
    lines: list[dict[str, Any]] = []
    for annotation in inputs:
        topic = data[annotation.pk]
        decided = verdicts.get(annotation.topic_id, {})
        index: dict[int, int] = {}
        mentions: list[MentionData] = []
        for k, (mention, id) in enumerate(
            zip(topic.mentions, ids[annotation.topic_id], strict=True)
        ):
            verdict = decided.get(id)
            if verdict is not None and mention.cluster is not None:
                lines.append(_line(topic, mention, verdict, labels))
            if verdict is not None and verdict.decision == "rejected":
                if not keep_rejected:
                    continue
                mention = _flagged(mention, verdict)
            elif verdict is not None:
                mention = _flagged(mention, verdict)
            index[k] = len(mentions)
            mentions.append(mention)
        used = {m.cluster for m in mentions}
        topics.append(
            replace(
                topic,
                mentions=mentions,
                clusters=[c for c in topic.clusters if c.key in used],
                relations=[(p, c) for p, c in topic.relations if p in used and c in used],
                links=[
                    LinkData(link.type, index[link.anaphor], index[link.antecedent])
                    for link in topic.links
                    if link.anaphor in index and link.antecedent in index
                ],
            )
        )
    return topics, lines


def _flagged(mention, verdict: Verdict):
    """CoRefi keeps a mention's own fields: the decision rides along there."""
    corefi = dict(mention.metadata.get("corefi", {}))
    corefi.update({"validation": verdict.decision, "reason": verdict.reason, "note": verdict.note})
    return replace(mention, metadata={**mention.metadata, "corefi": corefi})


def _line(topic: TopicData, mention, verdict: Verdict, labels: dict[str, str]) -> dict[str, Any]:
    document = topic.documents[mention.document]
    return {
        "topic": topic.external_id,
        "document": document.doc_id,
        "document_index": mention.document,
        "spans": [list(span) for span in mention.spans],
        "text": mention_text(document.tokens, mention.spans),
        "cluster": mention.cluster,
        "decision": verdict.decision,
        "reason": verdict.reason or None,
        "reason_label": labels.get(verdict.reason) if verdict.reason else None,
        "note": verdict.note,
        "by": verdict.by,
    }


def side_file_write(target: Path, *, folder: bool, lines: list[dict[str, Any]]) -> Path:
    path = (
        target / "validation.jsonl"
        if folder
        else target.with_name(target.name + ".validation.jsonl")
    )
    with path.open("w", encoding="utf-8") as stream:
        for line in lines:
            stream.write(json.dumps(line, ensure_ascii=False) + "\n")
    return path


@dataclass
class ValidationExport:
    """What `annotations_export` returns for a validation project (the shape of its
    ExportResult: `source`, `written` and `lines()`, annotation.validation_hooks.ExportLines)."""

    source: str
    written: list[tuple[Path, int, list]]

    def lines(self) -> list[str]:
        lines = [f"source: {self.source}"]
        for path, topics, warnings in self.written:
            lines.append(f"wrote {path} ({topics} topic(s), {len(warnings)} warning(s))")
            lines += [f"warning: {warning}" for warning in warnings]
        return lines


def _folder_names(topics: list[TopicData]) -> list[TopicData]:
    """Folder formats name files after topic ids: made plain and distinct (exports.py's rule)."""
    taken: set[str] = set()
    out = []
    for topic in topics:
        base = name = re.sub(r"[^\w .@+-]", "_", topic.external_id).strip().lstrip(".") or "_"
        counter = 1
        while name.lower() in taken:
            counter += 1
            name = f"{base}-{counter}"
        taken.add(name.lower())
        out.append(replace(topic, external_id=name))
    return out


def validated_export(
    *,
    project: Project,
    format: str,
    out: str | Path,
    source: str | None = None,
    split: str | None = None,
    keep_rejected: bool = False,
) -> ValidationExport:
    """Write the validated clusters (see the module's docstring) and the side file."""
    topics, lines = validated_topics(
        project=project, source=source, keep_rejected=keep_rejected, split=split
    )
    if not topics:
        raise ExportRefused(f"project '{project.name}' has no clusters to validate to export")
    folder = FORMATS[format].folder
    target = Path(out)
    if folder:
        topics = _folder_names(topics)
        target.mkdir(parents=True, exist_ok=True)
    warnings = write(format, topics, target)
    side = side_file_write(target, folder=folder, lines=lines)
    removed = "kept and flagged" if keep_rejected else "removed"
    return ValidationExport(
        source=f"{source or 'consolidated'} validation, rejected mentions {removed}",
        written=[(target, len(topics), list(warnings)), (side, len(topics), [])],
    )
