"""What a project archive holds: one entry per table, in the order rows are written.

Each table names how its rows are found from the project, the id space of each foreign key
(`user` is matched by name, never by id) and the columns that hold ids without being foreign
keys: plain id columns (`refs`) and JSON columns read by `json_ids`. Every id of every space
is remapped on import. Suggestion displays (when each was first shown) are carried since format
version 2. Not carried: import jobs (an upload in progress on the old machine),
model trainings, learnt model versions and trained model files (files on the old machine; a
pinned version is cleared), sessions, tokens
and passwords (docs/operations.md says why). Mention flags travel with their annotation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import models

from adjudication.models import MentionFlag
from annotation import models as core
from corefapp.archives import json_ids
from datasets.models import SplitRecord
from modelserve.models import Suggestion, SuggestionRun, SuggestionSettings
from onboarding.models import (
    PracticeAttempt,
    PracticeTopic,
    Qualification,
    QualificationChange,
    QualificationRule,
)
from reporting.models import SuggestionShown

JsonRemap = Callable[[dict[str, Any], json_ids.Remap], Any]


@dataclass(frozen=True)
class Table:
    model: type[models.Model]
    # The lookup from this table's rows to the project's id.
    project: str
    # Foreign key column -> the id space it points into (a table's space, or "user").
    keys: dict[str, str]
    # Plain integer columns that hold ids of a space (not foreign keys: they may dangle).
    refs: dict[str, str] = field(default_factory=dict)
    # JSON column -> its rewrite, given the whole row (a suggestion's payload needs its kind).
    json: dict[str, JsonRemap] = field(default_factory=dict)
    # Foreign keys to what no archive carries (a learnt model version): written as null, so the
    # importing instance falls back to its own default.
    cleared: frozenset[str] = frozenset()
    # The archive format version that first carried the table: an older archive has no file
    # for it and is read as holding no rows of it.
    since: int = 1
    # Columns of this instance's own choosing, never carried: the importer sets them.
    local: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        return self.model._meta.label_lower

    @property
    def space(self) -> str:
        return self.model._meta.model_name or self.label

    @property
    def columns(self) -> list[str]:
        return [f.attname for f in self.model._meta.concrete_fields if f.attname not in self.local]


_ANNOTATION = "annotation__topic__project_id"
_RULE_TOPICS = QualificationRule.practice_topics.through

TABLES: tuple[Table, ...] = (
    # Whether annotators see its assignments in My topics is the importing admin's choice.
    Table(core.Project, "id", {}, local=frozenset({"in_my_topics"})),
    Table(core.Topic, "project_id", {"project_id": "project"}),
    Table(core.Document, "topic__project_id", {"topic_id": "topic"}),
    Table(core.Assignment, "topic__project_id", {"topic_id": "topic", "user_id": "user"}),
    Table(
        core.Annotation,
        "topic__project_id",
        {"topic_id": "topic", "assignment_id": "assignment"},
        refs={"cursor": "mention"},
    ),
    Table(
        core.Mention,
        "topic__project_id",
        {"topic_id": "topic", "document_id": "document", "added_in_id": "annotation"},
    ),
    Table(core.Cluster, _ANNOTATION, {"annotation_id": "annotation"}),
    Table(
        core.ClusterMember,
        _ANNOTATION,
        {"annotation_id": "annotation", "mention_id": "mention", "cluster_id": "cluster"},
    ),
    Table(
        core.HierarchyEdge,
        _ANNOTATION,
        {"annotation_id": "annotation", "parent_id": "cluster", "child_id": "cluster"},
    ),
    Table(
        core.RelationLink,
        _ANNOTATION,
        {"annotation_id": "annotation", "anaphor_id": "mention", "antecedent_id": "mention"},
    ),
    Table(core.MentionEdit, _ANNOTATION, {"annotation_id": "annotation", "mention_id": "mention"}),
    Table(MentionFlag, _ANNOTATION, {"annotation_id": "annotation", "mention_id": "mention"}),
    Table(
        core.Operation,
        _ANNOTATION,
        {"annotation_id": "annotation", "target_id": "operation", "user_id": "user"},
        json={
            "payload": lambda row, remap: json_ids.payload_remap(row["payload"], remap),
            "effects": lambda row, remap: json_ids.effects_remap(row["effects"], remap),
        },
    ),
    Table(
        core.SuggestionDecision,
        _ANNOTATION,
        {"annotation_id": "annotation"},
        refs={"suggestion": "suggestion"},
    ),
    Table(
        core.ValidationDecision,
        _ANNOTATION,
        {"annotation_id": "annotation", "mention_id": "mention"},
    ),
    Table(
        SuggestionSettings,
        "project_id",
        {"project_id": "project"},
        cleared=frozenset({"pinned_version_id"}),
    ),
    Table(SuggestionRun, "topic__project_id", {"topic_id": "topic", "requested_by_id": "user"}),
    Table(
        Suggestion,
        "run__topic__project_id",
        {"run_id": "suggestionrun"},
        json={
            "payload": lambda row, remap: json_ids.suggestion_payload_remap(
                row["kind"], row["payload"], remap
            )
        },
    ),
    # When each suggestion was first shown: the start of its acceptance latency (the progress
    # page's "Accept latency"). Without it the imported project reads "– (0)".
    Table(
        SuggestionShown,
        _ANNOTATION,
        {"annotation_id": "annotation"},
        refs={"suggestion": "suggestion"},
        since=2,
    ),
    Table(
        PracticeTopic,
        "topic__project_id",
        {"topic_id": "topic"},
        json={"feedback": lambda row, remap: json_ids.feedback_remap(row["feedback"], remap)},
    ),
    Table(
        PracticeAttempt,
        "practice__topic__project_id",
        {"practice_id": "practicetopic", "user_id": "user", "annotation_id": "annotation"},
        json={
            "diff": lambda row, remap: json_ids.diff_remap(row["diff"], remap),
            "snapshot": lambda row, remap: json_ids.snapshot_remap(row["snapshot"], remap),
        },
    ),
    Table(QualificationRule, "project_id", {"project_id": "project"}),
    Table(
        _RULE_TOPICS,
        "qualificationrule__project_id",
        {"qualificationrule_id": "qualificationrule", "practicetopic_id": "practicetopic"},
    ),
    Table(Qualification, "project_id", {"project_id": "project", "user_id": "user"}),
    Table(
        QualificationChange,
        "project_id",
        {"project_id": "project", "user_id": "user", "actor_id": "user"},
    ),
    Table(SplitRecord, "project_id", {"project_id": "project"}),
)

# The apps whose migrations shape these tables (the manifest records their state).
APPS = ("auth", "annotation", "modelserve", "onboarding", "datasets", "reporting")
# What an archive says about a user; matched by username, created without a password.
USER_COLUMNS = ("id", "username", "email", "first_name", "last_name", "is_active", "is_staff")
