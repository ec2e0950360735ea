"""Tasks of the general worker (queue `default`) for corpora."""

from __future__ import annotations

from celery import shared_task

from corpus.services.imports import IMPORT_TASK, corpus_import_run
from foundation.jobs import lifecycle


@shared_task(bind=True, name=IMPORT_TASK, acks_late=True, reject_on_worker_lost=True)
def import_corpus(self, *, job_id: int) -> str:
    """A corpus file, checked then written in owned batches: a message redelivered after its
    worker died takes the import over once the heartbeat is stale, skipping what is written."""
    outcome = corpus_import_run(job_id=job_id, worker=self.request.hostname or "")
    if outcome == lifecycle.BUSY:
        raise self.retry(countdown=lifecycle.retry_countdown())
    return outcome
