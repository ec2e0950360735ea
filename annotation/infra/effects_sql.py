"""Apply the domain's effects to PostgreSQL, in order, inside the caller's transaction.

The same effect lists change the in-memory state (annotation.domain.effects) and the tables
here, so the log, the cache and the database cannot disagree. Runs of consecutive effects of
one kind are written with one statement each (a merge of two 300-mention clusters is one
UPDATE, not 300), which keeps big operations within the latency budget. Plain SQL rather than
the ORM: Django's delete() collects related objects first, which costs queries we never need
because the effects already removed every dependent row.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from django.db import connection

from annotation.models import (
    Cluster,
    ClusterMember,
    HierarchyEdge,
    Mention,
    MentionEdit,
    RelationLink,
    SuggestionDecision,
    ValidationDecision,
)

Effect = dict[str, Any]

CLUSTER = Cluster._meta.db_table
MEMBER = ClusterMember._meta.db_table
EDGE = HierarchyEdge._meta.db_table
LINK = RelationLink._meta.db_table
MENTION = Mention._meta.db_table
EDIT = MentionEdit._meta.db_table
DECISION = SuggestionDecision._meta.db_table
VALIDATION = ValidationDecision._meta.db_table


def effects_write(*, annotation_id: int, topic_id: int, effects: list[Effect]) -> None:
    with connection.cursor() as cursor:
        writer = _Writer(cursor, annotation_id, topic_id)
        for kind, run in groupby(effects, key=lambda effect: effect["e"]):
            getattr(writer, kind)(list(run))


class _Writer:
    def __init__(self, cursor, annotation_id: int, topic_id: int) -> None:
        self.cursor = cursor
        self.annotation = annotation_id
        self.topic = topic_id

    def _many(self, sql: str, rows: list[tuple]) -> None:
        if len(rows) == 1:
            self.cursor.execute(sql, rows[0])
        else:
            self.cursor.executemany(sql, rows)

    # -- clusters --------------------------------------------------------------------------

    def cluster_created(self, run: list[Effect]) -> None:
        self._many(
            f"INSERT INTO {CLUSTER} (id, annotation_id, label, note, attributes) "
            "VALUES (%s, %s, %s, %s, '{}'::jsonb)",
            [(e["cluster"], self.annotation, e["label"], e["note"]) for e in run],
        )

    def cluster_deleted(self, run: list[Effect]) -> None:
        self.cursor.execute(
            f"DELETE FROM {CLUSTER} WHERE annotation_id = %s AND id = ANY(%s)",
            [self.annotation, [e["cluster"] for e in run]],
        )

    def label_set(self, run: list[Effect]) -> None:
        self._many(
            f"UPDATE {CLUSTER} SET label = %s WHERE id = %s AND annotation_id = %s",
            [(e["new"], e["cluster"], self.annotation) for e in run],
        )

    def note_set(self, run: list[Effect]) -> None:
        self._many(
            f"UPDATE {CLUSTER} SET note = %s WHERE id = %s AND annotation_id = %s",
            [(e["new"], e["cluster"], self.annotation) for e in run],
        )

    def member_set(self, run: list[Effect]) -> None:
        removed = [e["mention"] for e in run if e["new"] is None]
        added = [(e["mention"], e["new"]) for e in run if e["old"] is None and e["new"] is not None]
        moved = [
            (e["mention"], e["new"]) for e in run if e["old"] is not None and e["new"] is not None
        ]
        if removed:
            self.cursor.execute(
                f"DELETE FROM {MEMBER} WHERE annotation_id = %s AND mention_id = ANY(%s)",
                [self.annotation, removed],
            )
        if moved:
            self.cursor.execute(
                f"UPDATE {MEMBER} AS m SET cluster_id = v.cluster FROM "
                f"unnest(%s::bigint[], %s::bigint[]) AS v(mention, cluster) "
                f"WHERE m.annotation_id = %s AND m.mention_id = v.mention",
                [[m for m, _ in moved], [c for _, c in moved], self.annotation],
            )
        if added:
            self.cursor.execute(
                f"INSERT INTO {MEMBER} (annotation_id, mention_id, cluster_id) "
                "SELECT %s, mention, cluster "
                "FROM unnest(%s::bigint[], %s::bigint[]) AS v(mention, cluster)",
                [self.annotation, [m for m, _ in added], [c for _, c in added]],
            )

    # -- hierarchy and links ---------------------------------------------------------------

    def edge_added(self, run: list[Effect]) -> None:
        self._many(
            f"INSERT INTO {EDGE} (annotation_id, parent_id, child_id) VALUES (%s, %s, %s)",
            [(self.annotation, e["parent"], e["child"]) for e in run],
        )

    def edge_removed(self, run: list[Effect]) -> None:
        self._many(
            f"DELETE FROM {EDGE} WHERE annotation_id = %s AND parent_id = %s AND child_id = %s",
            [(self.annotation, e["parent"], e["child"]) for e in run],
        )

    def link_added(self, run: list[Effect]) -> None:
        self._many(
            f"INSERT INTO {LINK} (annotation_id, type, anaphor_id, antecedent_id, note, "
            "attributes) VALUES (%s, %s, %s, %s, '', '{}'::jsonb)",
            [(self.annotation, e["type"], e["anaphor"], e["antecedent"]) for e in run],
        )

    def link_removed(self, run: list[Effect]) -> None:
        self._many(
            f"DELETE FROM {LINK} WHERE annotation_id = %s AND type = %s AND anaphor_id = %s "
            f"AND antecedent_id = %s",
            [(self.annotation, e["type"], e["anaphor"], e["antecedent"]) for e in run],
        )

    def link_note_set(self, run: list[Effect]) -> None:
        self._many(
            f"UPDATE {LINK} SET note = %s WHERE annotation_id = %s AND type = %s "
            "AND anaphor_id = %s AND antecedent_id = %s",
            [(e["new"], self.annotation, e["type"], e["anaphor"], e["antecedent"]) for e in run],
        )

    def link_attribute_set(self, run: list[Effect]) -> None:
        # A null value removes the name; any other sets it (one statement per effect, in order).
        self._many(
            f"UPDATE {LINK} SET attributes = CASE WHEN %s::text IS NULL THEN attributes - %s "
            "ELSE attributes || jsonb_build_object(%s::text, %s::text) END "
            "WHERE annotation_id = %s AND type = %s AND anaphor_id = %s AND antecedent_id = %s",
            [
                (
                    *_attribute_args(e),
                    self.annotation,
                    e["type"],
                    e["anaphor"],
                    e["antecedent"],
                )
                for e in run
            ],
        )

    def cluster_attribute_set(self, run: list[Effect]) -> None:
        self._many(
            f"UPDATE {CLUSTER} SET attributes = CASE WHEN %s::text IS NULL THEN attributes - %s "
            "ELSE attributes || jsonb_build_object(%s::text, %s::text) END "
            "WHERE id = %s AND annotation_id = %s",
            [(*_attribute_args(e), e["cluster"], self.annotation) for e in run],
        )

    # -- mentions --------------------------------------------------------------------------

    def mention_added(self, run: list[Effect]) -> None:
        # Added mentions sort after the candidates; within them, by id (creation order).
        self._many(
            f"INSERT INTO {MENTION} "
            "(id, topic_id, document_id, spans, position, added_in_id, metadata) "
            "VALUES (%s, %s, %s, %s::jsonb, 2147483647, %s, '{}'::jsonb)",
            [
                (e["mention"], self.topic, e["document"], _json(e["spans"]), self.annotation)
                for e in run
            ],
        )

    def mention_removed(self, run: list[Effect]) -> None:
        ids = [e["mention"] for e in run]
        self.cursor.execute(
            f"DELETE FROM {EDIT} WHERE annotation_id = %s AND mention_id = ANY(%s)",
            [self.annotation, ids],
        )
        self.cursor.execute(
            f"DELETE FROM {MENTION} WHERE added_in_id = %s AND id = ANY(%s)", [self.annotation, ids]
        )

    def spans_set(self, run: list[Effect]) -> None:
        self._many(
            f"INSERT INTO {EDIT} (annotation_id, mention_id, spans, rejected) "
            "VALUES (%s, %s, %s::jsonb, false) "
            "ON CONFLICT (annotation_id, mention_id) DO UPDATE SET spans = EXCLUDED.spans",
            [(self.annotation, e["mention"], _json(e["new"])) for e in run],
        )

    def rejected_set(self, run: list[Effect]) -> None:
        self._many(
            f"INSERT INTO {EDIT} (annotation_id, mention_id, spans, rejected) "
            "VALUES (%s, %s, NULL, %s) "
            "ON CONFLICT (annotation_id, mention_id) DO UPDATE SET rejected = EXCLUDED.rejected",
            [(self.annotation, e["mention"], e["new"]) for e in run],
        )

    def suggestion_decided(self, run: list[Effect]) -> None:
        for e in run:
            if e["new"] is None:
                self.cursor.execute(
                    f"DELETE FROM {DECISION} WHERE annotation_id = %s AND suggestion_id = %s",
                    [self.annotation, e["suggestion"]],
                )
            else:
                self.cursor.execute(
                    f"INSERT INTO {DECISION} (annotation_id, suggestion_id, decision) "
                    "VALUES (%s, %s, %s) "
                    "ON CONFLICT (annotation_id, suggestion_id) "
                    "DO UPDATE SET decision = EXCLUDED.decision",
                    [self.annotation, e["suggestion"], e["new"]],
                )

    def validation_set(self, run: list[Effect]) -> None:
        cleared = [e["mention"] for e in run if e["new"] is None]
        if cleared:
            self.cursor.execute(
                f"DELETE FROM {VALIDATION} WHERE annotation_id = %s AND mention_id = ANY(%s)",
                [self.annotation, cleared],
            )
        self._many(
            f"INSERT INTO {VALIDATION} (annotation_id, mention_id, decision, reason, note) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (annotation_id, mention_id) DO UPDATE SET "
            "decision = EXCLUDED.decision, reason = EXCLUDED.reason, note = EXCLUDED.note",
            [
                (
                    self.annotation,
                    e["mention"],
                    e["new"]["decision"],
                    e["new"]["reason"] or "",
                    e["new"]["note"],
                )
                for e in run
                if e["new"] is not None
            ],
        )


def _json(value) -> str:
    import json

    return json.dumps(value)


def _attribute_args(e: Effect) -> tuple:
    """The parameters of the attribute UPDATEs above: (new, name, name, new)."""
    return (e["new"], e["name"], e["name"], e["new"])
