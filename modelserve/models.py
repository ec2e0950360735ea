"""Suggestion runs and their suggestions (proposed clusters, hierarchy edges, anaphora links)."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q

from foundation.jobs.models import Job


def _default_backend() -> str:
    from modelserve.backends import DEFAULT_BACKEND

    return DEFAULT_BACKEND


class SuggestionSettings(models.Model):
    """A project's suggestion backend and its parameters, chosen by an admin; runs use them."""

    project = models.OneToOneField(
        "annotation.Project", on_delete=models.CASCADE, related_name="suggestion_settings"
    )
    backend = models.CharField(max_length=50, default=_default_backend)
    params = models.JSONField(default=dict, blank=True)
    # Learning in the loop (docs/learning.md): submitted and adjudicated topics retrain the
    # project's suggester, and runs use the version it serves.
    learn = models.BooleanField(default=False)
    # What learning fine-tunes from: an encoder folder inside the allowed model folders
    # (Longformer, CDLM, SciBERT...; blank: the packaged MiniLM), and the cross-encoder's
    # training profile (modelserve/training/profiles.py: default or scico-b2).
    learn_encoder = models.CharField(max_length=1000, blank=True, default="")
    learn_profile = models.CharField(max_length=20, default="default")
    # An admin's rollback (or roll forward): runs use this version whatever is newer. Null:
    # the newest eligible version (docs/learning.md), else the base model.
    pinned_version = models.ForeignKey(
        "ModelVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # An admin chose the base model (the backend as set) over every learnt version.
    serve_base = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.project_id}: {self.backend}"


class SuggestionRun(Job):
    """A model's suggestions for a topic: a job (foundation/jobs) the model worker runs."""

    topic = models.ForeignKey(
        "annotation.Topic", on_delete=models.CASCADE, related_name="suggestion_runs"
    )
    backend = models.CharField(max_length=50)
    params = models.JSONField(default=dict, blank=True)
    timings = models.JSONField(default=dict, blank=True)
    device = models.CharField(max_length=50, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta(Job.Meta):
        ordering: ClassVar[list[str]] = ["-created_at"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            *Job.Meta.constraints,
            # A user waits for their run of a topic before asking again (services/runs.py).
            models.UniqueConstraint(
                fields=["topic", "requested_by"],
                condition=Q(status__in=["queued", "running"]),
                name="run_one_active_per_topic_and_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.backend} run {self.pk} ({self.status})"


class Suggestion(models.Model):
    class Kind(models.TextChoices):
        CLUSTER = "cluster"
        MEMBERSHIP = "membership"
        EDGE = "edge"
        LINK = "link"
        MENTION = "mention"

    run = models.ForeignKey(SuggestionRun, on_delete=models.CASCADE, related_name="suggestions")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    position = models.PositiveIntegerField(
        help_text="order within the run and kind; makes writes idempotent"
    )
    score = models.FloatField()
    # cluster: {"mentions": [mention ids]} (a group; not decided on itself);
    # membership: {"mention": id, "cluster": cluster suggestion id} (one per mention: what an
    #   annotator accepts or rejects for the current mention);
    # edge: {"parent": cluster suggestion id, "child": cluster suggestion id};
    # link: {"type": T, "anaphor": mention id, "antecedent": mention id}; an end the model
    #   proposed is null there and named by its mention suggestion's id instead, in
    #   "proposed_anaphor" / "proposed_antecedent" (offered once that mention is accepted);
    # mention: {"document": document id, "spans": [[start, end], ...]} (a proposed new mention)
    payload = models.JSONField()

    class Meta:
        ordering: ClassVar[list[str]] = ["run", "kind", "position"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["run", "kind", "position"], name="suggestion_position_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} suggestion {self.pk} of run {self.run_id}"


class ModelTraining(Job):
    """A model the model worker trains after start-up (the ChEMU mention tagger), so that
    `make up` does not wait for it; the admin Suggestions page shows its progress."""

    name = models.CharField(max_length=50)
    # A retraining from a project's own work (services/learning.py); null: a default model.
    project = models.ForeignKey(
        "annotation.Project",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="model_trainings",
    )

    class Meta(Job.Meta):
        ordering: ClassVar[list[str]] = ["-created_at"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            *Job.Meta.constraints,
            models.UniqueConstraint(
                fields=["name"],
                condition=Q(status__in=["queued", "running"]),
                name="training_one_active_per_name",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.status}"


class ModelVersion(models.Model):
    """One model trained from a project's own work (docs/learning.md), with its held-out
    scores. `score` is the backend's primary held-out figure (modelserve/training/learning.py)
    and `previous_score` that of what served (`compared_with`: the base model or a version) on
    the same held-out topics, at training time: `not_worse` compares these two, so both are
    measured on one set. `eligible` is the verdict of the rule in docs/learning.md (enough
    held-out topics, not degenerate, not worse), `eligibility` its reason in words."""

    project = models.ForeignKey(
        "annotation.Project", on_delete=models.CASCADE, related_name="model_versions"
    )
    backend = models.CharField(max_length=50)
    number = models.PositiveIntegerField()
    path = models.CharField(max_length=500, help_text="the model's folder")
    params = models.JSONField(default=dict, help_text="what runs pass the backend")
    topics_used = models.PositiveIntegerField(help_text="topics trained on")
    holdout_topics = models.PositiveIntegerField(default=0)
    scores = models.JSONField(null=True, blank=True, help_text="held-out scores; null: none")
    score = models.FloatField(null=True, blank=True)
    previous_score = models.FloatField(null=True, blank=True)
    not_worse = models.BooleanField(default=True)
    compared_with = models.CharField(max_length=200, blank=True)
    degenerate = models.CharField(max_length=200, blank=True, help_text='"": not degenerate')
    eligible = models.BooleanField(default=False)
    eligibility = models.CharField(max_length=500, blank=True)
    # the project's topics (ids) it was trained on: never scored as if unseen (Models page)
    trained_topics = models.JSONField(default=list, blank=True)
    training = models.ForeignKey(
        ModelTraining, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["project", "number"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["project", "number"], name="model_version_number"),
        ]

    def __str__(self) -> str:
        return f"{self.backend} v{self.number} of project {self.project_id}"


class ModelEvaluation(Job):
    """A backend (and model version) scored on a project's gold: the admin Models page starts
    one, the model worker predicts every gold topic and scores it (services/evaluations.py);
    rows are kept, so runs can be compared."""

    class Gold(models.TextChoices):
        # as the agreement report: the latest submitted adjudication, else the imported gold
        GOLD = "gold"
        ADJUDICATED = "adjudicated"
        IMPORTED = "imported"

    project = models.ForeignKey(
        "annotation.Project", on_delete=models.CASCADE, related_name="model_evaluations"
    )
    backend = models.CharField(max_length=50)
    # the model folder scored (a trained version), "" for the backend's default
    model_version = models.CharField(max_length=500, blank=True)
    # the project's learnt version scored (docs/learning.md), when one was chosen; its folder
    # stays in `model_version` should the version row go
    version = models.ForeignKey(
        ModelVersion,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="evaluations",
    )
    params = models.JSONField(default=dict, blank=True)
    gold_source = models.CharField(max_length=20, choices=Gold.choices, default=Gold.GOLD)
    # Topics the model was trained on (topic id -> who saw it, "version 2", "the default ChEMU
    # model"), found when it was asked for: left out of the scores unless `include_trained`,
    # when they are scored and marked (modelserve/evaluation_seen.py).
    seen_topics = models.JSONField(default=dict, blank=True)
    include_trained = models.BooleanField(default=False)
    device = models.CharField(max_length=50, blank=True)
    # modelserve/model_scores.py's answer: metrics, per-topic rows, overall with intervals
    result = models.JSONField(default=dict, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.backend} evaluation {self.pk} ({self.status})"

    @property
    def result_or_none(self) -> dict | None:
        return self.result or None
