"""What the dataset release keeps: how each split of a project was made.

The project's topics carry their split (`Topic.split`); a `SplitRecord` is written by every
`dataset_split` run, so the datasheet can state the method, seed, ratios and the balance
reached. The latest record of a project describes its current split.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models

from annotation.models import Project
from foundation.jobs.models import Job


class SplitRecord(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="split_records")
    method = models.CharField(max_length=200)
    seed = models.BigIntegerField()
    names = models.JSONField(help_text="the split names, in the order of the ratios")
    ratios = models.JSONField(help_text="the requested ratios, one per name")
    balance = models.CharField(max_length=20, help_text="links, clusters or mentions")
    deviation = models.FloatField(
        help_text="the largest gap reached between a split's share of the balanced quantity "
        "and its share of the topics"
    )
    # external id -> split name, as assigned: what admins changed by hand since shows against it.
    assignment = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["project", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.method} split of project {self.project_id} (seed {self.seed})"


class ReleaseJob(Job):
    """A release bundle built by the general Celery worker (datasets/services/release_jobs.py):
    the Datasets page polls it for its progress, then offers the stored bundle's download."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="release_jobs")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    formats = models.JSONField(default=list, blank=True, help_text="empty: the defaults")
    source = models.CharField(max_length=20, blank=True)
    with_names = models.BooleanField(default=False)
    # The stored bundle once succeeded: name (in the default storage), size, files, warnings.
    result = models.JSONField(null=True, blank=True)

    class Meta(Job.Meta):
        ordering: ClassVar[list[str]] = ["project", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"release of project {self.project_id} ({self.status})"
