"""An annotation's history for admins (docs/annotation-history.md): who did what, when, read from
the operation log the workspace already writes (every change is one `Operation`: its name, its
user, its time, its effects; undo and redo name the operation they take back or put back).
Nothing new is recorded for it, so the history of work done before it existed is complete.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from annotation.models import Annotation, Operation

# What each kind of effect changes, in the words the page shows (counts per operation).
EFFECT_WORDS = {
    "cluster_created": "cluster created",
    "cluster_deleted": "cluster deleted",
    "member_set": "mention moved",
    "label_set": "label changed",
    "note_set": "note changed",
    "edge_added": "edge added",
    "edge_removed": "edge removed",
    "link_added": "link added",
    "link_removed": "link removed",
    "link_note_set": "link note changed",
    "link_attribute_set": "link attribute set",
    "cluster_attribute_set": "cluster attribute set",
    "mention_added": "mention added",
    "mention_removed": "mention removed",
    "rejected_set": "mention rejected or reopened",
    "spans_set": "spans fixed",
    "suggestion_decided": "suggestion decided",
    "validation_set": "validation decided",
}


@dataclass(frozen=True)
class TimelineEntry:
    version: int
    kind: str  # do, undo, redo
    name: str  # the operation: assign, merge, import, adjudication_seed, submit...
    user: str | None  # None: the system (an import, a seed)
    at: datetime
    changes: dict[str, int]  # EFFECT_WORDS -> how many
    target_version: int | None  # undo/redo: the version of the operation taken back or redone


@dataclass(frozen=True)
class Timeline:
    annotation: int
    topic: str
    project: int
    project_name: str
    annotator: str | None
    kind: str
    status: str | None
    version: int
    assigned_at: datetime | None
    submitted_at: datetime | None  # the last submission (submitting is no operation)
    entries: list[TimelineEntry]


def annotation_timeline(annotation: Annotation) -> Timeline:
    """Every logged operation of `annotation`, oldest first (admins only: the view checks)."""
    operations = (
        Operation.objects.filter(annotation=annotation)
        .select_related("user", "target")
        .order_by("version")
        .only(
            "version", "kind", "name", "effects", "created_at", "user__username", "target__version"
        )
    )
    entries = [
        TimelineEntry(
            version=op.version,
            kind=op.kind,
            name=op.name,
            user=op.user.get_username() if op.user else None,
            at=op.created_at,
            changes=_changes(op.effects),
            target_version=op.target.version if op.target else None,
        )
        for op in operations
    ]
    assignment = annotation.assignment
    return Timeline(
        annotation=annotation.pk,
        topic=annotation.topic.external_id,
        project=annotation.topic.project_id,
        project_name=annotation.topic.project.name,
        annotator=assignment.user.get_username() if assignment else None,
        kind=annotation.kind,
        status=assignment.status if assignment else None,
        version=annotation.version,
        assigned_at=assignment.created_at if assignment else None,
        submitted_at=assignment.submitted_at if assignment else None,
        entries=entries,
    )


def _changes(effects: list[dict]) -> dict[str, int]:
    counts = Counter(
        EFFECT_WORDS.get(effect.get("e", ""), effect.get("e", "")) for effect in effects
    )
    return dict(sorted(counts.items()))
