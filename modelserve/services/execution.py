"""Executing a suggestion run in the model worker, and storing its suggestions.

`suggestion_run_execute` is what the Celery task calls. It is idempotent: a finished run is
left alone; a run another live worker is executing (fresh heartbeat) is left to it; suggestions
are written in one transaction at the end, positions unique per run, so a worker killed
mid-run leaves nothing behind and the next attempt writes the run exactly once.

A worker whose heartbeat went stale may still be alive (a long pause, a slow disk) when
another worker takes its run over. Its end therefore writes only while it still owns the run:
the row is locked and its status, worker and attempt are checked in the transaction that
writes, so the late worker can neither replace suggestions an annotator already accepted nor
overwrite the new owner's status.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import (
    InterfaceError,
    OperationalError,
    close_old_connections,
    connection,
    transaction,
)
from django.db.models import QuerySet
from django.utils import timezone

from annotation.models import Document, Topic
from annotation.selectors.topic_data import topic_data_with_ids
from modelserve.backends import UnknownBackend, get_backend
from modelserve.backends.base import LinkSuggestion, Suggestions, check_links
from modelserve.model_store import models_local_for
from modelserve.models import Suggestion, SuggestionRun
from modelserve.services import run_broadcast

logger = logging.getLogger(__name__)
HEARTBEAT_SECONDS = 2.0


def heartbeat_stale_after() -> timedelta:
    return timedelta(seconds=getattr(settings, "SUGGEST_HEARTBEAT_STALE_SECONDS", 30))


def job_claim(model: Any, pk: int, worker: str, started: Callable[[Any], dict[str, Any]]) -> Any:
    """Mark a queued job row (an evaluation, a release build) as this worker's, or None when it
    is finished, gone or alive on another worker (a running row with a fresh heartbeat); a
    running row whose heartbeat went stale is taken over. `started(row)` gives the fields the
    job sets on a claim besides status, worker, attempts and heartbeat (message, progress)."""
    with transaction.atomic():
        row = model.objects.select_for_update().filter(pk=pk).first()
        if row is None or row.status not in (model.Status.QUEUED, model.Status.RUNNING):
            return None
        beat = row.heartbeat_at
        fresh = beat is not None and timezone.now() - beat < heartbeat_stale_after()
        if row.status == model.Status.RUNNING and fresh:
            return None
        row.status = model.Status.RUNNING
        row.worker = worker
        row.attempts += 1
        row.heartbeat_at = timezone.now()
        for field, value in started(row).items():
            setattr(row, field, value)
        row.save()
    return row


def _claim(run_id: int, worker: str) -> SuggestionRun | None:
    """Mark the run as ours, or None when it is finished, gone (its topic was deleted) or
    alive on another worker."""
    with transaction.atomic():
        run = SuggestionRun.objects.select_for_update().filter(pk=run_id).first()
        finished = (SuggestionRun.Status.SUCCEEDED, SuggestionRun.Status.FAILED)
        if run is None or run.status in finished:
            return None
        fresh = run.heartbeat_at and timezone.now() - run.heartbeat_at < heartbeat_stale_after()
        if run.status == SuggestionRun.Status.RUNNING and fresh:
            return None
        run.status = SuggestionRun.Status.RUNNING
        run.attempts += 1
        run.worker = worker
        run.started_at = timezone.now()
        run.heartbeat_at = timezone.now()
        run.progress = 0.0
        run.message = "starting" if run.attempts == 1 else f"restarting (attempt {run.attempts})"
        run.error = ""
        run.save()
    run_broadcast.run_changed(run)
    return run


class Heartbeat:
    """Refreshes `heartbeat_at` on `rows` (a run or a training, filtered to its running state)
    from a thread while the model works (a long encode calls no progress callback), so other
    workers can tell a live job from a dead one."""

    def __init__(self, rows: QuerySet, name: str) -> None:
        self.rows = rows
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._beat, daemon=True, name=f"heartbeat-{name}")

    def _beat(self) -> None:
        try:
            while not self.stop.wait(HEARTBEAT_SECONDS):
                try:
                    self.rows.update(heartbeat_at=timezone.now())
                except (OperationalError, InterfaceError):
                    connection.close()  # the pool was closed under it: next beat, afresh
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(10)


def _progress_reporter(run: SuggestionRun):
    last = [0.0]

    def report(fraction: float, message: str) -> None:
        now = time.monotonic()
        if now - last[0] < 0.5 and fraction < 1.0:
            return  # at most two updates a second: the bar moves, the database rests
        last[0] = now
        run.progress = max(0.0, min(1.0, float(fraction)))
        run.message = message[:300]
        if _owned(run).update(
            progress=run.progress, message=run.message, heartbeat_at=timezone.now()
        ):
            run_broadcast.run_changed(run)

    return report


def suggestion_run_execute(*, run_id: int, worker: str = "") -> str:
    """Run the model for one run (the Celery task's body). Returns what happened."""
    close_old_connections()
    run = _claim(run_id, worker)
    if run is None:
        return "skipped: finished, gone or running elsewhere"
    timings: dict[str, float] = {}
    try:
        # Only while ours: a late worker must not keep a new owner's dead run looking alive.
        with Heartbeat(_owned(run), name=f"run-{run.pk}"):
            started = time.perf_counter()
            topic = Topic.objects.select_related("project").get(pk=run.topic_id)
            data, mention_ids = topic_data_with_ids(topic)
            timings["load_topic_s"] = time.perf_counter() - started
            started = time.perf_counter()
            models_local_for(run.backend, run.params)  # with STORAGE_URL: from the bucket
            backend = get_backend(run.backend, run.params, models_dir=settings.MODELS_DIR)
            timings["load_model_s"] = time.perf_counter() - started
            started = time.perf_counter()
            suggestions = backend.suggest(data, progress=_progress_reporter(run))
            timings["predict_s"] = time.perf_counter() - started
        started = time.perf_counter()
        document_ids = list(
            Document.objects.filter(topic_id=run.topic_id)
            .order_by("position")
            .values_list("pk", flat=True)
        )
        timings["mentions"] = len(mention_ids)
        from modelserve.devices import (
            pick_device,
        )  # torch: imported in model workers only, never by the web server

        device = str(
            pick_device(run.params.get("device", getattr(settings, "SUGGEST_DEVICE", "auto")))
        )
        with transaction.atomic():
            if not _still_ours(run):
                return _superseded(run)
            count = _store(run, suggestions, mention_ids, document_ids)
            timings["store_s"] = time.perf_counter() - started
            _owned(run).update(
                status=SuggestionRun.Status.SUCCEEDED,
                progress=1.0,
                finished_at=timezone.now(),
                timings=timings,
                device=device,
                message=_finished_message(count, suggestions),
            )
    except UnknownBackend as exc:
        return _fail(run, str(exc), timings)
    except Exception as exc:  # the run records any model failure with its message for the UI
        logger.exception("suggestion run %s failed", run.pk)
        return _fail(run, f"{type(exc).__name__}: {exc}", timings, detail=traceback.format_exc())
    run.refresh_from_db()
    run_broadcast.run_changed(run)
    return f"succeeded: {count} suggestions"


def _finished_message(count: int, suggestions: Suggestions) -> str:
    """ "12 suggestions", and what the backend could not propose yet and why."""
    from modelserve.training_state import pending_note

    note = pending_note(suggestions.pending)
    return (f"{count} suggestions; {note}" if note else f"{count} suggestions")[:300]


def _owned(run: SuggestionRun) -> QuerySet:
    """The run's row while this execution owns it: running, on this worker, this attempt."""
    return SuggestionRun.objects.filter(
        pk=run.pk,
        status=SuggestionRun.Status.RUNNING,
        worker=run.worker,
        attempts=run.attempts,
    )


def _still_ours(run: SuggestionRun) -> bool:
    """Locks the row (inside the caller's transaction) and says whether we still own it."""
    return _owned(run).select_for_update().exists()


def _superseded(run: SuggestionRun) -> str:
    logger.warning(
        "suggestion run %s: attempt %s on %r lost the run to another worker; its result is dropped",
        run.pk,
        run.attempts,
        run.worker,
    )
    return "skipped: another worker took the run over"


def _fail(run: SuggestionRun, message: str, timings: dict, detail: str = "") -> str:
    # One UPDATE filtered on ownership: a run taken over stays the new owner's.
    if not _owned(run).update(
        status=SuggestionRun.Status.FAILED,
        finished_at=timezone.now(),
        error=(message + "\n\n" + detail).strip(),
        message=message[:300],
        timings=timings,
    ):
        return _superseded(run)
    run.refresh_from_db()
    run_broadcast.run_changed(run)
    return f"failed: {message}"


def _store(
    run: SuggestionRun, suggestions: Suggestions, mention_ids: list[int], document_ids: list[int]
) -> int:
    """Write every suggestion of the run at once (indices -> our mention and document ids;
    a link end past the topic's mentions names a proposed mention: `_link_payload`). The
    caller holds the run's row locked and has checked that it still owns the run."""
    out_of_range = check_links(suggestions.links, len(mention_ids) + len(suggestions.mentions))
    if out_of_range:  # the run fails with this message rather than store a dangling link
        raise ValueError(f"the {run.backend} backend returned a bad link: {out_of_range}")
    # A half-written earlier attempt cannot exist (one transaction), and a finished one
    # cannot reach here (the owner check): belt and braces.
    Suggestion.objects.filter(run=run).delete()
    clusters = Suggestion.objects.bulk_create(
        [
            Suggestion(
                run=run,
                kind=Suggestion.Kind.CLUSTER,
                position=i,
                score=c.score,
                payload={"mentions": [mention_ids[m] for m in c.mentions]},
            )
            for i, c in enumerate(suggestions.clusters)
        ]
    )
    memberships: list[Suggestion] = []
    for row, cluster in zip(clusters, suggestions.clusters, strict=True):
        scores = cluster.mention_scores or [cluster.score] * len(cluster.mentions)
        for mention, score in zip(cluster.mentions, scores, strict=True):
            memberships.append(
                Suggestion(
                    run=run,
                    kind=Suggestion.Kind.MEMBERSHIP,
                    position=len(memberships),
                    score=score,
                    payload={"mention": mention_ids[mention], "cluster": row.pk},
                )
            )
    edges = [
        Suggestion(
            run=run,
            kind=Suggestion.Kind.EDGE,
            position=i,
            score=e.score,
            payload={"parent": clusters[e.parent].pk, "child": clusters[e.child].pk},
        )
        for i, e in enumerate(suggestions.edges)
    ]
    proposed = Suggestion.objects.bulk_create(
        [
            Suggestion(
                run=run,
                kind=Suggestion.Kind.MENTION,
                position=i,
                score=m.score,
                payload={
                    "document": document_ids[m.document],
                    "spans": [[int(start), int(end)] for start, end in m.spans],
                },
            )
            for i, m in enumerate(suggestions.mentions)
        ]
    )
    links = [
        Suggestion(
            run=run,
            kind=Suggestion.Kind.LINK,
            position=i,
            score=link.score,
            payload=_link_payload(link, mention_ids, [row.pk for row in proposed]),
        )
        for i, link in enumerate(suggestions.links)
    ]
    Suggestion.objects.bulk_create(memberships + edges + links)
    return len(clusters) + len(edges) + len(proposed) + len(links)


def _link_payload(link: LinkSuggestion, mention_ids: list[int], proposed: list[int]) -> dict:
    """An end below len(mention_ids) is one of the topic's mentions; past it, the mention
    suggestion it names (stored by id, the end itself null until that mention exists)."""
    payload: dict = {"type": link.type}
    if link.type_scores:
        payload["type_scores"] = link.type_scores
    for end in ("anaphor", "antecedent"):
        index = getattr(link, end)
        if index < len(mention_ids):
            payload[end] = mention_ids[index]
        else:
            payload[end] = None
            payload[f"proposed_{end}"] = proposed[index - len(mention_ids)]
    return payload
