"""Suggestion runs: request one (the web server); the model worker executes it
(modelserve.services.execution, through modelserve.tasks) and re-sends the task of any run
that nobody would otherwise execute (suggestion_runs_requeue)."""

from __future__ import annotations

from celery import current_app
from django.db import connection, transaction

from annotation import gates
from annotation.domain.errors import NotFound
from annotation.errors import AnnotationLocked
from annotation.models import Assignment, Project, Topic
from annotation.selectors.access import visible_topics
from foundation.jobs import lifecycle
from foundation.roles import is_admin
from foundation.side_effects import after_commit
from modelserve.backends import available_backends
from modelserve.backends.parameters import schema
from modelserve.errors import (
    ModelQueueUnavailable,
    RunAlreadyActive,
    RunNotAllowed,
    RunRefused,
    RunSettingsAdminOnly,
)
from modelserve.models import SuggestionRun
from modelserve.queues import backend_queue
from modelserve.selectors import project_suggestion_settings, run_payload
from modelserve.services import run_broadcast
from modelserve.services.requeue import silent_rows_requeue
from modelserve.services.settings import backend_params_checked
from modelserve.version_selectors import learned_run_settings
from modelserve.workers import broker_reachable, waiting_run_ids

# The model worker's task (modelserve.tasks), sent by name: the tasks call the services,
# never the other way round.
RUN_TASK = "modelserve.tasks.run_suggestions"


def run_task_send(run_id: int, *, backend: str) -> None:
    """Queue the run's task in its backend's queue (modelserve/queues.py). A broker that fails
    now fails the run with the reason (lifecycle.send_or_fail, the one policy of every job),
    and the topic's page hears of it, so the annotator asks again."""
    sent = lifecycle.send_or_fail(
        SuggestionRun,
        run_id,
        lambda: current_app.send_task(
            RUN_TASK,
            kwargs={"run_id": run_id},
            queue=backend_queue(backend),
            ignore_result=True,
        ),
    )
    if not sent:
        run = SuggestionRun.objects.filter(pk=run_id).first()
        if run is not None:
            run_broadcast.run_changed(run)


def active_runs_locked(*, topic_ids: list[int], user) -> list[SuggestionRun]:
    """`user`'s queued or running runs of these topics, read under a transaction-scoped lock
    per (topic, user), so two requests at once cannot both find none and both create one
    (the partial unique constraint run_one_active_per_topic_and_user backs this up)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended('modelserve.run:' || t || ':' || %s, 0))"
            " FROM unnest(%s::bigint[]) AS t",  # in the order given: sorted, so no deadlock
            [user.pk, sorted(topic_ids)],
        )
    return list(
        SuggestionRun.objects.filter(
            topic_id__in=topic_ids,
            requested_by=user,
            status__in=[SuggestionRun.Status.QUEUED, SuggestionRun.Status.RUNNING],
        ).order_by("topic_id", "-created_at")
    )


@transaction.atomic
def suggestion_run_request(
    *, topic: Topic, user, backend: str | None = None, params: dict | None = None
) -> SuggestionRun:
    """Queue a run for `topic` with the project's backend (or `backend`); the task is sent to
    the backend's queue after commit. With the broker down or hung nothing is created: the
    request is refused at once rather than leaving a run that no worker hears of. A user has
    at most one queued or running run per topic (RunAlreadyActive names it), and every path
    parameter must lie inside the allowed model folders (ModelPathRefused) and every parameter
    be one the backend declares (ParameterRefused)."""
    if not broker_reachable():
        raise ModelQueueUnavailable(
            "The model queue (Redis) is not answering, so no suggestion run was started. "
            "Try again in a moment."
        )
    if user is not None:
        active = active_runs_locked(topic_ids=[topic.pk], user=user)
        if active:
            raise RunAlreadyActive(
                "You already have a suggestion run for this topic "
                f"({active[0].status}); wait for it to finish before asking again.",
                run=run_payload(active[0]),
            )
    configured = project_suggestion_settings(topic.project_id)
    configured_params = configured.params
    learned = learned_run_settings(topic.project_id)  # a learnt version serves (learning.md)
    if learned is not None and backend in (None, learned[0]):
        backend, configured_params = learned[0], {**configured.params, **learned[1]}
    backend = backend or configured.backend
    if backend not in available_backends():
        raise RunRefused(
            f"Unknown suggestion backend {backend!r}; "
            f"choose one of {', '.join(available_backends())}."
        )
    if backend != configured.backend:
        # the project's parameters are its own backend's: another backend (a learnt version's,
        # an admin's override) takes those it also declares (device, batch_size...)
        configured_params = {k: v for k, v in configured_params.items() if k in schema(backend)}
    merged = backend_params_checked(backend, params={**configured_params, **(params or {})})
    if topic.project.hierarchy and "single_parent" not in merged and backend != "chemu":
        merged["single_parent"] = topic.project.single_parent
    run = SuggestionRun.objects.create(
        topic=topic,
        backend=backend,
        params=merged,
        requested_by=user,
        message="waiting for a model worker",
    )
    after_commit(run_task_send, run.pk, backend=run.backend)
    after_commit(run_broadcast.run_changed, run)
    return run


def topic_run_request(
    *, topic_id: int, user, backend: str | None = None, params: dict | None = None
) -> SuggestionRun:
    """A run asked for by a user: the topic's annotators and admins may ask."""
    topic = visible_topics(user).select_related("project").filter(pk=topic_id).first()
    if topic is None:
        raise NotFound("topic", topic_id)
    if not is_admin(user):
        mine = list(Assignment.objects.filter(topic=topic, user=user).values_list("pk", flat=True))
        if not mine:
            raise RunNotAllowed("Only the topic's annotators and admins can ask for suggestions.")
        # A topic the user may not edit yet (onboarding: not qualified) gets no runs either.
        notes = gates.assignment_notes(user, mine)
        locked = [notes[id]["locked"] for id in mine]
        if all(locked):
            raise AnnotationLocked(locked[0])
    why = gates.suggestions_off(topic)
    if why:
        raise RunRefused(why)
    if not is_admin(user) and (backend is not None or params):
        raise RunSettingsAdminOnly(
            "Suggestions use the backend and parameters an admin chose for the project; "
            "ask without a backend or parameters."
        )
    return suggestion_run_request(topic=topic, user=user, backend=backend, params=params)


@transaction.atomic
def project_runs_request(
    *, project: Project, user, backend: str | None = None, params: dict | None = None
) -> list[SuggestionRun]:
    """One run for every topic of the project, all or none: refused (RunAlreadyActive, with
    their ids) while any topic has a queued or running run of this user."""
    active = active_runs_locked(
        topic_ids=list(project.topics.values_list("pk", flat=True)), user=user
    )
    if active:
        raise RunAlreadyActive(
            f"{len(active)} topic(s) already have a suggestion run of yours queued or running; "
            "nothing was queued. Ask again once they finish.",
            runs=[run.pk for run in active],
        )
    if not project.suggestions:
        raise RunRefused(gates.suggestions_off(project.topics.first()) or "Suggestions are off.")
    # Practice topics (and a project with suggestions off) are left out: see gates.
    return [
        suggestion_run_request(topic=topic, user=user, backend=backend, params=params)
        for topic in project.topics.select_related("project")
        if not gates.suggestions_off(topic)
    ]


def suggestion_runs_requeue() -> list[int]:
    """Send again the task of every run that no worker would otherwise execute, and return
    their ids: a run `running` whose heartbeat is stale (its worker died), or `queued` for
    longer than the staleness window with no message waiting in the broker (lost with a
    flushed Redis, or held by a worker that died, which Redis would redeliver only after the
    visibility timeout). Idempotent and safe to run from every model worker: rows are locked
    (others skip them), and a re-queued run's heartbeat is set to now, so it is not sent again
    within the window. A duplicate message is harmless: the execution claims the run once.
    Raises redis.RedisError when the broker does not answer (nothing is changed then)."""

    def send(run: SuggestionRun) -> None:
        after_commit(run_task_send, run.pk, backend=run.backend)
        after_commit(run_broadcast.run_changed, run)

    runs = silent_rows_requeue(SuggestionRun, waiting=waiting_run_ids(RUN_TASK), send=send)
    return [run.pk for run in runs]
