"""A corpus encoded by real model workers, one SIGKILLed mid-chunk (as a crash or an OOM kill
would): the unacknowledged message is redelivered, the next worker takes the chunk over once
the dead one's heartbeat is stale and encodes it again, and every mention ends with exactly
one vector; the corpus switches to the encoding when the last chunk is stored."""

from __future__ import annotations

import pytest

from corpus.models import CorpusMention, EncodeChunk, MentionVector
from modelserve.services.corpus_encoding import corpus_encoding_start
from tests.corpus.build import imported_corpus
from tests.workers import FAST_REDELIVERY, start_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_chunk_whose_worker_was_killed_is_redone_once(services, tmp_path):
    corpus = imported_corpus(tmp_path, "killed", 90)  # 180 mentions: three chunks
    first = start_worker(services, name="encode-test", **FAST_REDELIVERY)
    try:
        encoding = corpus_encoding_start(corpus=corpus, chunk_size=60)
        assert encoding.chunks.count() == 3
        running = wait_for_running(encoding)
    finally:
        first.kill()
    running.refresh_from_db()
    assert running.status == "running", "the chunk ended before its worker was killed"
    assert not MentionVector.objects.filter(encoding=encoding).exists()

    second = start_worker(services, name="encode-test", **FAST_REDELIVERY)
    try:
        chunks = [
            wait_for(chunk, {"succeeded", "failed"}, timeout=240) for chunk in encoding.chunks.all()
        ]
    finally:
        second.stop()

    assert [c.status for c in chunks] == ["succeeded"] * 3, [c.message for c in chunks]
    killed = next(c for c in chunks if c.pk == running.pk)
    assert killed.attempts == 2
    assert killed.worker.startswith(second.name)
    assert all(c.attempts == 1 for c in chunks if c.pk != running.pk)
    assert MentionVector.objects.filter(encoding=encoding).count() == 180
    assert CorpusMention.objects.filter(corpus=corpus).count() == 180
    corpus.refresh_from_db()
    encoding.refresh_from_db()
    assert encoding.status == "complete"
    assert corpus.active_encoding == encoding


def wait_for_running(encoding) -> EncodeChunk:
    """The first chunk a worker claims, as soon as it is claimed (it then loads the model and
    encodes for seconds)."""
    chunk = encoding.chunks.order_by("index").first()
    wait_for(chunk, {"running", "succeeded", "failed"}, timeout=120, step=0.05)
    return EncodeChunk.objects.filter(encoding=encoding, status="running").first() or chunk
