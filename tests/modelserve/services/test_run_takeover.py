"""Two executions of one run: a worker whose heartbeat went stale but that was still alive
finishes after another worker took the run over, finished it, and an annotator accepted one
of its suggestions. The late worker writes nothing.

Real PostgreSQL; the two executions run in two threads of this process. The model's answer is
fixed (a gated stand-in for the backend): what is tested is who may write at the end, and a
stand-in is the only way to hold the first execution between its claim and its end."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from annotation.services.operations import annotation_operation_apply
from modelserve.backends.base import ClusterSuggestion, Suggestions
from modelserve.models import Suggestion, SuggestionRun
from modelserve.selectors import annotation_suggestions
from modelserve.services import execution
from tests.factories import UserFactory, assign, make_topic

pytestmark = pytest.mark.django_db(transaction=True)


class Fixed:
    """Suggests `groups`; the first worker's call waits at `gate` until the test opens it."""

    def __init__(self, groups: dict[str, list[list[int]]], gate: threading.Event) -> None:
        self.groups = groups
        self.gate = gate
        self.entered = threading.Event()

    def suggest(self, data, progress=None):
        worker = threading.current_thread().name
        if worker == "late":
            self.entered.set()
            assert self.gate.wait(60)
        return Suggestions(clusters=[ClusterSuggestion(g, 0.9) for g in self.groups[worker]])


def test_a_late_worker_cannot_replace_suggestions_accepted_from_the_run_it_lost(
    monkeypatch, settings
):
    topic = make_topic()
    user = UserFactory()
    _, annotation = assign(topic, user)
    run = SuggestionRun.objects.create(topic=topic, backend="minilm")
    gate = threading.Event()
    backend = Fixed({"late": [[0, 1, 2]], "MainThread": [[0, 1], [2, 3]]}, gate)
    monkeypatch.setattr(execution, "get_backend", lambda name, params, **folders: backend)
    results: list[str] = []

    def worker_a() -> None:
        try:
            results.append(execution.suggestion_run_execute(run_id=run.pk, worker="worker-a"))
        finally:
            connection.close()

    late = threading.Thread(name="late", target=worker_a)
    late.start()
    assert backend.entered.wait(30)

    # Worker A's heartbeat counts as stale at once: worker B takes the run over and ends it.
    settings.SUGGEST_HEARTBEAT_STALE_SECONDS = 0
    taken = execution.suggestion_run_execute(run_id=run.pk, worker="worker-b")
    offered = annotation_suggestions(annotation)["memberships"][0]
    annotation_operation_apply(
        annotation_id=annotation.pk,
        user=user,
        payload={
            "op": "accept_suggestion",
            "suggestion": offered["suggestion"],
            "operation": offered["operation"],
        },
        expected_version=0,
    )
    kept = set(Suggestion.objects.filter(run=run).values_list("pk", flat=True))
    gate.set()
    late.join(60)

    run.refresh_from_db()
    assert taken.startswith("succeeded")
    assert results == ["skipped: another worker took the run over"]
    assert set(Suggestion.objects.filter(run=run).values_list("pk", flat=True)) == kept
    assert offered["suggestion"] in kept
    assert run.status == "succeeded"
    assert run.worker == "worker-b"
    assert run.attempts == 2
    assert run.message == "2 suggestions"  # worker B's two clusters, not worker A's one
