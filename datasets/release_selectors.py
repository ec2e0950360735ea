"""Reads of the release jobs (datasets/services/release_jobs.py)."""

from __future__ import annotations

from annotation.models import Project
from datasets.models import ReleaseJob


def latest_release_jobs(project: Project, limit: int = 5) -> list[ReleaseJob]:
    """The project's latest release jobs, newest first: the first is what the Datasets page
    shows (its progress, its download, or why it failed)."""
    return list(ReleaseJob.objects.filter(project=project).order_by("-created_at", "-id")[:limit])
