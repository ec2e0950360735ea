"""The admin's progress matrix: topics x annotators, status, mentions done, time spent.

Time spent comes from the operation log: the sum of the gaps between an annotator's
consecutive operations, each gap capped (a pause longer than IDLE_CAP is a break, not work),
plus one cap for the first decision. Computed in PostgreSQL with a window function, in one
query for the whole project.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Count

from annotation.models import (
    SEED_OPERATION,
    Assignment,
    ClusterMember,
    Mention,
    MentionEdit,
    Operation,
    RelationLink,
    Topic,
)
from annotation.validation_hooks import validation_decided_counts

IDLE_CAP_SECONDS = 300


def _time_spent(annotation_ids: list[int]) -> dict[int, float]:
    if not annotation_ids:
        return {}
    table = Operation._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT annotation_id, SUM(LEAST(COALESCE(gap, 0), %s)) AS seconds, COUNT(*)
            FROM (
                SELECT annotation_id,
                       EXTRACT(EPOCH FROM created_at - LAG(created_at) OVER (
                           PARTITION BY annotation_id ORDER BY version)) AS gap
                FROM {table} WHERE annotation_id = ANY(%s) AND name <> ALL(%s)
            ) gaps GROUP BY annotation_id
            """,
            # (an import and a seed are written for the annotator, not by them)
            [IDLE_CAP_SECONDS, annotation_ids, ["import", SEED_OPERATION]],
        )
        return {row[0]: float(row[1] or 0) for row in cursor.fetchall()}


def _count_by(queryset, field: str) -> dict[int, int]:
    return dict(queryset.values(field).annotate(n=Count("id")).values_list(field, "n"))


def project_progress(project) -> dict:
    assignments = list(
        Assignment.objects.filter(topic__project=project)
        .select_related("user", "annotation")
        .order_by("topic__position", "topic_id", "user__username")
    )
    annotation_ids = [a.annotation.pk for a in assignments]
    topics = list(
        Topic.objects.filter(project=project).order_by("position", "id").values("id", "external_id")
    )
    candidates = _count_by(
        Mention.objects.filter(topic__project=project, added_in__isnull=True), "topic_id"
    )
    assigned = _count_by(
        ClusterMember.objects.filter(annotation_id__in=annotation_ids), "annotation_id"
    )
    added = _count_by(Mention.objects.filter(added_in_id__in=annotation_ids), "added_in_id")
    rejected = _count_by(
        MentionEdit.objects.filter(annotation_id__in=annotation_ids, rejected=True), "annotation_id"
    )
    links = _count_by(
        RelationLink.objects.filter(annotation_id__in=annotation_ids), "annotation_id"
    )
    spent = _time_spent(annotation_ids)
    decided = validation_decided_counts(annotation_ids)  # a validator's mentions done
    # Annotations handed the topic's seed (services/seeds.py): their work starts above it.
    seeded = set(
        Operation.objects.filter(
            annotation_id__in=annotation_ids, version=1, name=SEED_OPERATION
        ).values_list("annotation_id", flat=True)
    )
    users = {}
    cells = []
    for a in assignments:
        users[a.user_id] = a.user.username
        annotation_id = a.annotation.pk
        total = (
            candidates.get(a.topic_id, 0)
            + added.get(annotation_id, 0)
            - rejected.get(annotation_id, 0)
        )
        cells.append(
            {
                "assignment": a.pk,
                "topic": a.topic_id,
                "user": a.user_id,
                "status": a.status,
                "role": a.role,
                "annotation": annotation_id,
                "version": a.annotation.version,
                "start_version": 1 if annotation_id in seeded else 0,
                "mentions_done": assigned.get(annotation_id, 0) + decided.get(annotation_id, 0),
                "mentions_total": total,
                "links": links.get(annotation_id, 0),
                "seconds_spent": round(spent.get(annotation_id, 0.0), 1),
            }
        )
    return {
        "project": project.pk,
        "topics": topics,
        "annotators": [
            {"id": id, "username": name} for id, name in sorted(users.items(), key=lambda x: x[1])
        ],
        "cells": cells,
    }
