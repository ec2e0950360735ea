"""Load an annotation from PostgreSQL into the domain's `AnnotationState`.

A handful of flat `values_list` queries, no model instances: on a 1,000-mention topic this is
the cost of every operation that misses the state cache, so it stays lean.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.db import connection

from annotation.domain.state import AnnotationState, Cluster, Link, Mention, Settings, Validation
from annotation.models import (
    Annotation,
    ClusterMember,
    Document,
    HierarchyEdge,
    MentionEdit,
    Project,
    RelationLink,
    SuggestionDecision,
    ValidationDecision,
)
from annotation.models import (
    Cluster as ClusterRow,
)
from annotation.models import (
    Mention as MentionRow,
)

# The project columns an annotation state depends on (Settings' fields, in its order).
SETTINGS_COLUMNS = (
    "single_parent",
    "allow_add_mentions",
    "allow_fix_spans",
    "allow_reject_mentions",
    "hierarchy",
    "anaphora",
    "refuse_duplicate_link_pairs",
    "validation",
    "validation_reasons",
    "attributes",
)


def settings_from(values: Mapping[str, Any]) -> Settings:
    """The domain's Settings from the project's columns (`SETTINGS_COLUMNS`)."""
    reasons = tuple(reason["key"] for reason in values["validation_reasons"] or ())
    attributes = tuple(
        (definition["name"], tuple(definition["values"]))
        for definition in values["attributes"] or ()
    )
    return Settings(**{**values, "validation_reasons": reasons, "attributes": attributes})


def project_settings(project: Project) -> Settings:
    return settings_from({column: getattr(project, column) for column in SETTINGS_COLUMNS})


def mention_text(tokens: list[str], spans) -> str:
    """The text an annotator sees for a mention; the parts of a discontinuous one joined by '…'."""
    return " … ".join(" ".join(tokens[start : end + 1]) for start, end in spans)


class DocumentTokens:
    """Tokens fetched on demand (only a new cluster's label needs them), then kept."""

    def __init__(self) -> None:
        self._tokens: dict[int, list[str]] = {}

    def __call__(self, mention: Mention) -> str:
        tokens = self._tokens.get(mention.document)
        if tokens is None:
            tokens = Document.objects.values_list("tokens", flat=True).get(pk=mention.document)
            self._tokens[mention.document] = tokens
        return mention_text(tokens, mention.spans)


def topic_documents(topic_id: int) -> dict[int, int]:
    """Document id -> token count, in topic order (messages number documents in this order)."""
    rows = Document.objects.filter(topic_id=topic_id).order_by("position", "id")
    return dict(rows.values_list("id", "token_count"))


_MENTIONS_SQL = f"""
SELECT COALESCE(
    json_agg(json_build_array(id, document_id, spans, added_in_id) ORDER BY position, id),
    '[]')::text
FROM {MentionRow._meta.db_table}
WHERE topic_id = %s AND (added_in_id IS NULL OR added_in_id = %s)
"""


def _mention_rows(topic_id: int, annotation_id: int) -> list[list[Any]]:
    """[id, document, spans, added_in] of the topic's candidates and of the mentions this
    annotation added, in topic order: one JSON array built by PostgreSQL and decoded once
    (row by row, Django decodes each `spans` on its own: most of loading a novel's state)."""
    with connection.cursor() as cursor:
        cursor.execute(_MENTIONS_SQL, [topic_id, annotation_id])
        return json.loads(cursor.fetchone()[0])


def annotation_state_load(annotation: Annotation) -> AnnotationState:
    topic_id = annotation.topic_id
    project = annotation.topic.project
    documents = topic_documents(topic_id)
    edits = {
        mention: (spans, rejected)
        for mention, spans, rejected in MentionEdit.objects.filter(
            annotation=annotation
        ).values_list("mention_id", "spans", "rejected")
    }
    mentions = {}
    for id, document, spans, added_in in _mention_rows(topic_id, annotation.pk):
        fixed, rejected = edits.get(id, (None, False))
        mentions[id] = Mention(
            id=id,
            document=document,
            spans=fixed or spans,
            added=added_in is not None,
            rejected=rejected,
        )
    members: dict[int, set[int]] = defaultdict(set)
    for mention, cluster in ClusterMember.objects.filter(annotation=annotation).values_list(
        "mention_id", "cluster_id"
    ):
        members[cluster].add(mention)
    clusters = {
        id: Cluster(
            id=id, label=label, note=note, members=members.get(id, set()), attributes=attributes
        )
        for id, label, note, attributes in ClusterRow.objects.filter(
            annotation=annotation
        ).values_list("id", "label", "note", "attributes")
    }
    links, link_notes, link_attributes = set(), {}, {}
    for type, anaphor, antecedent, note, attributes in RelationLink.objects.filter(
        annotation=annotation
    ).values_list("type", "anaphor_id", "antecedent_id", "note", "attributes"):
        link = Link(type, anaphor, antecedent)
        links.add(link)
        if note:
            link_notes[link] = note
        if attributes:
            link_attributes[link] = attributes
    return AnnotationState(
        settings=project_settings(project),
        documents=documents,
        mentions=mentions,
        clusters=clusters,
        edges=set(
            HierarchyEdge.objects.filter(annotation=annotation).values_list("parent_id", "child_id")
        ),
        links=links,
        link_notes=link_notes,
        link_attributes=link_attributes,
        decisions=dict(
            SuggestionDecision.objects.filter(annotation=annotation).values_list(
                "suggestion", "decision"
            )
        ),
        validations={
            mention: Validation(decision, reason or None, note)
            for mention, decision, reason, note in ValidationDecision.objects.filter(
                annotation=annotation
            ).values_list("mention_id", "decision", "reason", "note")
        },
        mention_text=DocumentTokens(),
    )


def annotation_initial_state(annotation: Annotation) -> AnnotationState:
    """The state before the first logged operation: the topic's candidate mentions only."""
    topic_id = annotation.topic_id
    mentions = {
        id: Mention(id=id, document=document, spans=spans)
        for id, document, spans in MentionRow.objects.filter(
            topic_id=topic_id, added_in__isnull=True
        ).values_list("id", "document_id", "spans")
    }
    return AnnotationState(
        settings=project_settings(annotation.topic.project),
        documents=topic_documents(topic_id),
        mentions=mentions,
    )


@contextmanager
def annotation_state_read(annotation: Annotation) -> Iterator[AnnotationState]:
    """The state for reading inside the `with` block (never mutate it): from the per-process
    cache when it is at the annotation's version and the project's current settings, else
    loaded. While the block runs the state is out of the cache, so no operation on another
    thread can mutate it under the reader; afterwards it goes back for the operations that
    usually follow."""
    from annotation.infra import state_cache

    settings = project_settings(annotation.topic.project)
    state = state_cache.take(annotation.pk, annotation.version, settings)
    if state is None:
        state = annotation_state_load(annotation)
    try:
        yield state
    finally:
        state_cache.give_back(annotation.pk, annotation.version, state)
