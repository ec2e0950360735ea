"""Suggestion runs: request one (the web server); the model worker executes it
(modelserve.services.execution, through modelserve.tasks)."""

from __future__ import annotations

from celery import current_app
from django.db import transaction

from annotation.domain.errors import NotFound
from annotation.infra.side_effects import after_commit
from annotation.models import Assignment, Project, Topic
from annotation.selectors.access import is_admin, visible_topics
from modelserve.backends import available_backends
from modelserve.errors import RunNotAllowed, RunRefused
from modelserve.models import SuggestionRun
from modelserve.selectors import project_suggestion_settings
from modelserve.services import run_broadcast

# The model worker's task (modelserve.tasks), sent by name: the tasks call the services,
# never the other way round.
RUN_TASK = "modelserve.tasks.run_suggestions"


@transaction.atomic
def suggestion_run_request(
    *, topic: Topic, user, backend: str | None = None, params: dict | None = None
) -> SuggestionRun:
    """Queue a run for `topic` with the project's backend (or `backend`); the task is sent to
    the `models` queue after commit."""
    configured = project_suggestion_settings(topic.project_id)
    backend = backend or configured.backend
    if backend not in available_backends():
        raise RunRefused(
            f"Unknown suggestion backend {backend!r}; "
            f"choose one of {', '.join(available_backends())}."
        )
    merged = {**configured.params, **(params or {})}
    if topic.project.hierarchy and "single_parent" not in merged and backend != "chemu":
        merged["single_parent"] = topic.project.single_parent
    run = SuggestionRun.objects.create(
        topic=topic,
        backend=backend,
        params=merged,
        requested_by=user,
        message="waiting for a model worker",
    )
    after_commit(current_app.send_task, RUN_TASK, kwargs={"run_id": run.pk}, queue="models")
    after_commit(run_broadcast.run_changed, run)
    return run


def topic_run_request(
    *, topic_id: int, user, backend: str | None = None, params: dict | None = None
) -> SuggestionRun:
    """A run asked for by a user: the topic's annotators and admins may ask."""
    topic = visible_topics(user).select_related("project").filter(pk=topic_id).first()
    if topic is None:
        raise NotFound("topic", topic_id)
    if not is_admin(user) and not Assignment.objects.filter(topic=topic, user=user).exists():
        raise RunNotAllowed("Only the topic's annotators and admins can ask for suggestions.")
    return suggestion_run_request(topic=topic, user=user, backend=backend, params=params)


@transaction.atomic
def project_runs_request(
    *, project: Project, user, backend: str | None = None, params: dict | None = None
) -> list[SuggestionRun]:
    """One run for every topic of the project, all or none."""
    return [
        suggestion_run_request(topic=topic, user=user, backend=backend, params=params)
        for topic in project.topics.select_related("project")
    ]
