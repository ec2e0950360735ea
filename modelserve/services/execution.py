"""Executing a suggestion run in the model worker, and storing its suggestions.

`suggestion_run_execute` is what the Celery task calls. It is idempotent: a finished run is
left alone; a run another live worker is executing (fresh heartbeat) is left to it; suggestions
are written in one transaction at the end, positions unique per run, so a worker killed
mid-run leaves nothing behind and the next attempt writes the run exactly once.

A worker whose heartbeat went stale may still be alive (a long pause, a slow disk) when
another worker takes its run over. Its end therefore writes only while it still owns the run
(the ownership rule of foundation/jobs/lifecycle.py, which every job follows): the row is
locked and its status, worker and attempt are checked in the transaction that writes, so the
late worker can neither replace suggestions an annotator already accepted nor overwrite the
new owner's status.
"""

from __future__ import annotations

import logging
import time
import traceback

from django.conf import settings
from django.db import close_old_connections, transaction

from annotation.models import Document, Topic
from annotation.selectors.topic_data import topic_data_with_ids
from foundation.jobs import lifecycle
from modelserve.backends import UnknownBackend, get_backend
from modelserve.backends.base import LinkSuggestion, Suggestions, check_links
from modelserve.model_store import models_local_for
from modelserve.models import Suggestion, SuggestionRun
from modelserve.services import run_broadcast

logger = logging.getLogger(__name__)


def _claim(run_id: int, worker: str) -> lifecycle.Claim:
    """The run, as this worker's (foundation/jobs/lifecycle.py); the topic's page hears of it."""
    claim = lifecycle.claim(SuggestionRun, run_id, worker=worker)
    if claim.job is not None:
        run_broadcast.run_changed(claim.job)
    return claim


def suggestion_run_execute(*, run_id: int, worker: str = "") -> str:
    """Run the model for one run (the Celery task's body). Returns what happened."""
    close_old_connections()
    claim = _claim(run_id, worker)
    if not claim.claimed:
        return claim.answer()
    run: SuggestionRun = claim.job
    timings: dict[str, float] = {}
    try:
        with lifecycle.Heartbeat(run):
            started = time.perf_counter()
            topic = Topic.objects.select_related("project").get(pk=run.topic_id)
            data, mention_ids = topic_data_with_ids(topic)
            timings["load_topic_s"] = time.perf_counter() - started
            started = time.perf_counter()
            models_local_for(run.backend, run.params)  # with STORAGE_URL: from the bucket
            backend = get_backend(run.backend, run.params, models_dir=settings.MODELS_DIR)
            timings["load_model_s"] = time.perf_counter() - started
            started = time.perf_counter()
            progress = lifecycle.progress_reporter(run, written=run_broadcast.run_changed)
            suggestions = backend.suggest(data, progress=progress)
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
            # Locked and checked where the suggestions are stored: a late worker whose run was
            # taken over must not replace suggestions an annotator already accepted.
            if not lifecycle.still_owned(run):
                return _superseded(run)
            count = _store(run, suggestions, mention_ids, document_ids)
            timings["store_s"] = time.perf_counter() - started
            lifecycle.finish(
                run,
                SuggestionRun.Status.SUCCEEDED,
                _finished_message(count, suggestions),
                timings=timings,
                device=device,
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


def _superseded(run: SuggestionRun) -> str:
    logger.warning(
        "suggestion run %s: attempt %s on %r lost the run to another worker; its result is dropped",
        run.pk,
        run.attempts,
        run.worker,
    )
    return "skipped: another worker took the run over"


def _fail(run: SuggestionRun, message: str, timings: dict, detail: str = "") -> str:
    # An owned write: a run taken over stays the new owner's.
    if not lifecycle.finish(
        run,
        SuggestionRun.Status.FAILED,
        message,
        error=(message + "\n\n" + detail).strip(),
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
