"""Onboarding data: practice topics, attempts, and qualification before real work.

A practice topic is an ordinary topic of its project (documents, candidate mentions, a gold
annotation) with a mode: *guided* (each decision is checked against gold at once, CoRefi's
onboarding) or *scored* (the submitted annotation is scored against gold). Every submitted
attempt is kept with its scores, its diff and a copy of the annotation it scored: resetting a
practice topic starts a new annotation, and the old one goes with its assignment.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models

from annotation.models import Annotation, Project, Topic


class PracticeTopic(models.Model):
    class Mode(models.TextChoices):
        GUIDED = "guided"
        SCORED = "scored"

    topic = models.OneToOneField(Topic, on_delete=models.CASCADE, related_name="practice")
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.SCORED)
    # CoRefi's guided tour: [{"target", "header": {"title"}, "content", "params"?}, ...].
    tour_steps = models.JSONField(default=list, blank=True)
    # Per candidate mention id (as a string): {"cluster": gold key, "valid": message,
    # "error": message, "cluster_errors": {gold key: message}}; CoRefi's goldMentions.
    feedback = models.JSONField(default=dict, blank=True)
    # CoRefi's other settings (snackbarTimeout, selectedCluster, hypernym, ...), as read.
    settings = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.topic} ({self.mode})"


class PracticeAttempt(models.Model):
    """One submission of a practice topic by an annotator, scored against gold."""

    practice = models.ForeignKey(PracticeTopic, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice_attempts"
    )
    number = models.PositiveIntegerField()
    # The annotation it scored, while it exists (a reset deletes it; `snapshot` keeps it).
    annotation = models.ForeignKey(
        Annotation, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    scores = models.JSONField(default=dict)
    diff = models.JSONField(default=dict)
    snapshot = models.JSONField(default=dict)
    passed = models.BooleanField(null=True, help_text="null: the project sets no threshold")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["practice", "user", "number"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["practice", "user", "number"], name="attempt_number_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"attempt {self.number} of user {self.user_id} on practice {self.practice_id}"


class QualificationRule(models.Model):
    """A project that requires qualification: pass these practice topics with these scores."""

    project = models.OneToOneField(
        Project, on_delete=models.CASCADE, related_name="qualification_rule"
    )
    practice_topics = models.ManyToManyField(PracticeTopic, related_name="rules")
    # metric name (onboarding.scores.METRICS) -> the least score that passes, 0..1.
    thresholds = models.JSONField(default=dict)
    # How many scored attempts an annotator may submit in the project before an admin steps
    # in (None: no limit). Unlimited retries with feedback turn the test into a search.
    attempts_allowed = models.PositiveIntegerField(
        null=True, blank=True, default=3, help_text="scored attempts per annotator; null: no limit"
    )

    def __str__(self) -> str:
        return f"qualification rule of project {self.project_id}"


class Qualification(models.Model):
    """An annotator's state in a project that requires qualification (no row: not yet)."""

    class Source(models.TextChoices):
        PRACTICE = "practice"
        MANUAL = "manual"

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    qualified = models.BooleanField(default=False)
    source = models.CharField(max_length=10, choices=Source.choices)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["project", "user"], name="one_qualification"),
        ]

    def __str__(self) -> str:
        return f"user {self.user_id} qualified={self.qualified} in project {self.project_id}"


class QualificationChange(models.Model):
    """The log of qualification changes: passing practice, and every manual (un)qualify."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    qualified = models.BooleanField()
    source = models.CharField(max_length=10, choices=Qualification.Source.choices)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"user {self.user_id} qualified={self.qualified} by {self.source}"
