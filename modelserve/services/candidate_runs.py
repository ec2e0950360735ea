"""A candidate-topic run on the model workers (corpus/services/candidates.py says what it
retrieves): started here because its task goes to the model queue, and run here because the
concepts are encoded by the encoding's own encoder, which only a model worker loads.

A concept is encoded as a bare phrase (context `none`: its own words, mean-pooled and L2
normalised), against mentions encoded in their sentences; the similarity floor is set with
that in mind (docs/corpus.md)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence

from celery import current_app
from django.conf import settings
from django.db import close_old_connections

from corefscore.corpus import DocumentData, MentionData, TopicData
from corpus.models import CandidateRun, Corpus
from corpus.services.candidates import candidate_run_create, candidates_build, run_concepts
from foundation.jobs import lifecycle
from foundation.jobs.models import JobStatus
from modelserve.backends import DEFAULT_BACKEND
from modelserve.queues import backend_queue

logger = logging.getLogger(__name__)

CANDIDATES_TASK = "modelserve.candidate_topics"


def candidate_run_start(
    *, corpus: Corpus, groups: Sequence[int] = (), user=None, **limits
) -> CandidateRun:
    """Check and queue a run; its task is sent to the default model queue after commit."""
    return candidate_run_create(corpus=corpus, groups=groups, user=user, send=_send, **limits)


def _send(run_id: int) -> None:
    lifecycle.send_or_fail(
        CandidateRun,
        run_id,
        functools.partial(
            current_app.send_task,
            CANDIDATES_TASK,
            kwargs={"run_id": run_id},
            queue=backend_queue(DEFAULT_BACKEND),
        ),
    )


def candidate_run_execute(*, run_id: int, worker: str = "") -> str:
    """The task's body: claim the run, encode its concepts, build and store its candidates."""
    close_old_connections()
    claim = lifecycle.claim(CandidateRun, run_id, worker=worker)
    if not claim.claimed:
        return claim.answer()
    run: CandidateRun = claim.job
    progress = lifecycle.progress_reporter(run)
    try:
        with lifecycle.Heartbeat(run):
            if run.encoding is None:
                raise ValueError("its encoding was removed: start the run again")
            concepts = run_concepts(run)
            progress(0.05, f"encoding {len(concepts):,} concepts")
            vectors = concept_vectors(run.encoding.encoder, concepts=concepts)
            progress(0.5, "retrieving")
            return candidates_build(run, dict(zip(concepts, vectors, strict=True)), progress)
    except Exception as error:  # the run records any failure for the page that polls it
        logger.exception("candidate run %s failed", run_id)
        message = f"{type(error).__name__}: {error}"
        lifecycle.finish(run, JobStatus.FAILED, message)
        return f"failed: {message}"


def concept_vectors(encoder_path: str, *, concepts: Sequence[str]):
    """One unit vector per concept, each its own words without context."""
    from modelserve.encoders import MentionEncoder  # torch: the model worker's import only

    topic = TopicData(external_id="concepts")
    for index, concept in enumerate(concepts):
        words = concept.split()
        topic.documents.append(DocumentData(f"concept-{index}", words, [(0, len(words))]))
        topic.mentions.append(MentionData(index, ((0, len(words) - 1),)))
    encoder = MentionEncoder(encoder_path, device=settings.SUGGEST_DEVICE, context="none")
    return encoder.embed(topic)
