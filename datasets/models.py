"""What the dataset release keeps: how each split of a project was made.

The project's topics carry their split (`Topic.split`); a `SplitRecord` is written by every
`dataset_split` run, so the datasheet can state the method, seed, ratios and the balance
reached. The latest record of a project describes its current split.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from annotation.models import Project


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
