"""What the annotation interface reads: a topic, an annotation, my assignments."""

from __future__ import annotations

import json

from django.db import connection
from django.db.models import Count, Max

from annotation import gates
from annotation.domain import history
from annotation.domain.state import AnnotationState
from annotation.models import (
    Annotation,
    Assignment,
    ClusterMember,
    Document,
    Mention,
    MentionEdit,
    Operation,
    Topic,
)
from annotation.selectors.log import operation_log
from annotation.selectors.shown_metadata import documents_shown, topic_metadata_shown
from annotation.selectors.state import annotation_state_read
from annotation.selectors.topic_titles import topic_titles
from annotation.validation_hooks import validation_decided_counts


def project_payload(project) -> dict:
    return {
        "id": project.pk,
        "name": project.name,
        "hierarchy": project.hierarchy,
        "anaphora": project.anaphora,
        "single_parent": project.single_parent,
        "allow_add_mentions": project.allow_add_mentions,
        "allow_fix_spans": project.allow_fix_spans,
        "allow_reject_mentions": project.allow_reject_mentions,
        "refuse_duplicate_link_pairs": project.refuse_duplicate_link_pairs,
        "guidelines": project.guidelines,
        "validation": project.validation,
        "suggestions": project.suggestions,
        "attributes": project.attributes,
    }


def topic_payload(topic: Topic) -> dict:
    documents = (
        Document.objects.filter(topic=topic)
        .order_by("position")
        .values("id", "position", "doc_id", "tokens", "sentences", "metadata")
    )
    return {
        "id": topic.pk,
        "external_id": topic.external_id,
        "source": topic.source,
        "metadata": topic_metadata_shown(topic.metadata),
        "project": project_payload(topic.project),
        "suggestions_off": gates.suggestions_off(topic),
        "documents": documents_shown(list(documents)),
        "mentions": candidate_mentions(topic.pk),
    }


_CANDIDATES_SQL = f"""
SELECT COALESCE(
    json_agg(json_build_object('id', id, 'document', document_id, 'spans', spans)
             ORDER BY position, id),
    '[]')::text
FROM {Mention._meta.db_table} WHERE topic_id = %s AND added_in_id IS NULL
"""


def candidate_mentions(topic_id: int) -> list[dict]:
    """The topic's candidate mentions, in order, as the workspace reads them: one JSON array
    built by PostgreSQL and decoded once. Row by row, Django decodes each mention's `spans`
    on its own, and for a novel's 10,000 mentions that was most of the topic's request."""
    with connection.cursor() as cursor:
        cursor.execute(_CANDIDATES_SQL, [topic_id])
        return json.loads(cursor.fetchone()[0])


def _undo_redo(annotation: Annotation) -> tuple[bool, bool]:
    undoable, redoable = history.stacks(operation_log(annotation.pk))
    return bool(undoable), bool(redoable)


def annotation_payload(annotation: Annotation) -> dict:
    with annotation_state_read(annotation) as state:
        return _annotation_payload(annotation, state)


def _annotation_payload(annotation: Annotation, state: AnnotationState) -> dict:
    can_undo, can_redo = _undo_redo(annotation)
    assignment = annotation.assignment
    return {
        "id": annotation.pk,
        "topic": annotation.topic_id,
        "kind": annotation.kind,
        "version": annotation.version,
        "assignment": assignment.pk if assignment else None,
        "annotator": assignment.user.username if assignment else None,
        "status": assignment.status if assignment else "gold",
        "cursor": annotation.cursor,
        "clusters": [
            {
                "id": c.id,
                "label": c.label,
                "note": c.note,
                "members": sorted(c.members),
                "attributes": c.attributes,
            }
            for c in sorted(state.clusters.values(), key=lambda c: c.id)
        ],
        "edges": sorted([p, c] for p, c in state.edges),
        "links": sorted([link.type, link.anaphor, link.antecedent] for link in state.links),
        "link_details": [
            {
                "type": link.type,
                "anaphor": link.anaphor,
                "antecedent": link.antecedent,
                "note": state.link_notes.get(link, ""),
                "attributes": state.link_attributes.get(link, {}),
            }
            for link in sorted({*state.link_notes, *state.link_attributes})
        ],
        "mentions": [
            {
                "id": m.id,
                "document": m.document,
                "spans": [list(s) for s in m.spans],
                "added": m.added,
                "rejected": m.rejected,
            }
            for m in sorted(state.mentions.values(), key=lambda m: m.id)
        ],
        "decisions": {str(k): v for k, v in state.decisions.items()},
        "can_undo": can_undo,
        "can_redo": can_redo,
        "import_marks": import_marks(annotation),
    }


def import_marks(annotation: Annotation) -> list[dict[str, str]]:
    """What the file this annotation was imported from holds that the workspace would refuse
    (ChEMU-Ref: a link breaking a rule, an empty side, a repeat), as its import listed it:
    kept as released and shown flagged, so that whoever works on it can fix it."""
    marks = Operation.objects.filter(
        annotation=annotation, kind=Operation.Kind.DO, name="import"
    ).values_list("payload__marks", flat=True)
    return [
        {"field": str(mark.get("field", "")), "message": str(mark.get("message", ""))}
        for found in marks
        if isinstance(found, list)
        for mark in found
        if isinstance(mark, dict)
    ]


def assignments_payload(assignments) -> list[dict]:
    """My topics with progress, in two queries for all of them (no N+1)."""
    assignments = list(assignments.select_related("topic__project", "annotation"))
    annotation_ids = [a.annotation.pk for a in assignments]
    topic_ids = {a.topic_id for a in assignments}
    assigned = dict(
        ClusterMember.objects.filter(annotation_id__in=annotation_ids)
        .values("annotation_id")
        .annotate(n=Count("id"))
        .values_list("annotation_id", "n")
    )
    # A validator's progress is the mentions they decided (docs/validation.md).
    decided = validation_decided_counts(annotation_ids)
    rejected = dict(
        MentionEdit.objects.filter(annotation_id__in=annotation_ids, rejected=True)
        .values("annotation_id")
        .annotate(n=Count("id"))
        .values_list("annotation_id", "n")
    )
    candidates = dict(
        Mention.objects.filter(topic_id__in=topic_ids, added_in__isnull=True)
        .values("topic_id")
        .annotate(n=Count("id"))
        .values_list("topic_id", "n")
    )
    added = dict(
        Mention.objects.filter(added_in_id__in=annotation_ids)
        .values("added_in_id")
        .annotate(n=Count("id"))
        .values_list("added_in_id", "n")
    )
    last_edit = dict(
        Operation.objects.filter(annotation_id__in=annotation_ids)
        .values("annotation_id")
        .annotate(at=Max("created_at"))
        .values_list("annotation_id", "at")
    )
    titles = topic_titles(topic_ids)
    rows = []
    for a in assignments:
        annotation_id = a.annotation.pk
        total = (
            candidates.get(a.topic_id, 0)
            + added.get(annotation_id, 0)
            - rejected.get(annotation_id, 0)
        )
        rows.append(
            {
                "id": a.pk,
                "role": a.role,
                "status": a.status,
                "user": a.user_id,
                "topic": {
                    "id": a.topic_id,
                    "external_id": a.topic.external_id,
                    "title": titles.get(a.topic_id, ""),
                },
                "project": {
                    "id": a.topic.project_id,
                    "name": a.topic.project.name,
                    "hierarchy": a.topic.project.hierarchy,
                    "anaphora": a.topic.project.anaphora,
                    "validation": a.topic.project.validation,
                },
                "annotation": annotation_id,
                "version": a.annotation.version,
                "progress": {
                    "assigned": assigned.get(annotation_id, 0) + decided.get(annotation_id, 0),
                    "total": total,
                },
                "last_edited": last_edit.get(annotation_id),
                "submitted_at": a.submitted_at,
            }
        )
    # Apps built on the core say which rows are practice and which are locked (and why).
    notes = gates.assignment_notes(None, [row["id"] for row in rows])
    for row in rows:
        row.update(notes[row["id"]])
    return rows


# The order of My topics, by status: what I am working on, then what I have not started,
# then what I have submitted. The page shows the rows in this order and the first one not
# submitted is the topic to continue; nothing else orders them.
MY_TOPICS_ORDER = {
    Assignment.Status.IN_PROGRESS: 0,
    Assignment.Status.REOPENED: 0,
    Assignment.Status.ASSIGNED: 1,
    Assignment.Status.SUBMITTED: 2,
}


def _my_topics_key(row: dict) -> tuple[int, float]:
    """The status's rank, then, among topics in progress, the latest edited first."""
    rank = MY_TOPICS_ORDER.get(row["status"], len(MY_TOPICS_ORDER))
    edited = row["last_edited"]
    return rank, -edited.timestamp() if rank == 0 and edited is not None else 0.0


def my_assignments_payload(user) -> list[dict]:
    """`user`'s own assignments (an admin's too): in progress (the latest edited first), to
    do, submitted (MY_TOPICS_ORDER); within each, by project and topic order. A project kept
    out of My topics (an imported archive's, unless the admin chose otherwise) is left out."""
    mine = Assignment.objects.filter(user=user, topic__project__in_my_topics=True)
    rows = assignments_payload(mine.order_by("topic__project__name", "topic__position", "topic_id"))
    # Locked rows (annotation/gates.py) come last: the topic to continue is one I may open.
    # Practice still to do comes first, in the onboarding's order (guided, then scored).
    return sorted(
        rows, key=lambda row: (row["locked"] is not None, _practice_rank(row), *_my_topics_key(row))
    )


# The onboarding's order: the guided tutorial, then the scored test, then real work.
PRACTICE_ORDER = {"guided": 0, "scored": 1}


def _practice_rank(row: dict) -> int:
    if row["status"] == Assignment.Status.SUBMITTED:
        return len(PRACTICE_ORDER)
    return PRACTICE_ORDER.get(row["practice"], len(PRACTICE_ORDER))


def annotation_log_payload(annotation: Annotation, *, limit: int = 500) -> list[dict]:
    """The log (newest last): what changed, by whom, when; the last `limit` entries."""
    rows = annotation.operations.order_by("-version").values(
        "id", "version", "kind", "name", "payload", "warnings", "user__username", "created_at"
    )[:limit]
    return [dict(row) for row in rows][::-1]
