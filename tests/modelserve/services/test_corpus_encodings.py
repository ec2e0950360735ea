"""A corpus's mentions encoded into versioned encodings on the real database (pgvector), the
chunk task's body run here as a model worker runs it: one unit vector per mention, the corpus
switched to an encoding only once all its chunks are stored (an encoder change keeps the old
vectors answering until then), a chunk taken over from a paused worker stored once, and the
HNSW index answering a nearest-mentions query as exact search does."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from corpus.models import CorpusEncoding, CorpusMention, EncodeChunk, MentionVector
from corpus.selectors import nearest_mentions, nearest_vectors
from foundation.jobs import lifecycle
from modelserve.encoders import default_encoder_path
from modelserve.services import corpus_encoding as encoding_service
from tests.corpus.build import imported_corpus

pytestmark = pytest.mark.django_db(transaction=True)

DOCUMENTS = 60  # two mentions each: 120 mentions, three chunks of 40


def encode(corpus, **options) -> CorpusEncoding:
    return encoding_service.corpus_encoding_start(corpus=corpus, chunk_size=40, **options)


def run_chunks(encoding: CorpusEncoding, count: int | None = None) -> None:
    chunks = list(encoding.chunks.filter(status="queued").order_by("index"))
    for chunk in chunks[:count]:
        outcome = encoding_service.encode_chunk_execute(chunk_id=chunk.pk, worker="worker-a")
        assert outcome.startswith("succeeded"), outcome


@pytest.fixture
def corpus(tmp_path):
    return imported_corpus(tmp_path, "cs", DOCUMENTS)


@pytest.fixture
def second_encoder(settings, tmp_path) -> str:
    """Another encoder folder the server allows: the packaged MiniLM's files, hard-linked."""
    folder = tmp_path / "models" / "other-minilm"
    source = Path(default_encoder_path())
    for path in source.rglob("*"):
        target = folder / path.relative_to(source)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(path, target)
    settings.MODEL_PATHS_ALLOWED = [tmp_path / "models"]
    return str(folder)


def test_every_mention_gets_one_unit_vector_and_the_corpus_switches(corpus):
    encoding = encode(corpus)
    assert encoding.chunks.count() == 3
    corpus.refresh_from_db()
    assert corpus.active_encoding is None  # nothing answers before it is complete

    run_chunks(encoding)

    encoding.refresh_from_db()
    corpus.refresh_from_db()
    assert encoding.status == "complete"
    assert encoding.dim == 384
    assert corpus.active_encoding == encoding
    vectors = MentionVector.objects.filter(encoding=encoding)
    assert vectors.count() == CorpusMention.objects.filter(corpus=corpus).count() == 120
    norms = np.linalg.norm(np.array([v.vector for v in vectors]), axis=1)
    assert np.allclose(norms, 1.0, atol=1e-4)


def test_the_hnsw_index_returns_the_nearest_mentions(corpus):
    encoding = encode(corpus)
    run_chunks(encoding)
    corpus.refresh_from_db()
    rows = list(MentionVector.objects.filter(encoding=encoding).select_related("mention"))
    matrix = np.array([row.vector for row in rows])
    probe = next(row for row in rows if row.mention.text == "machine translation")

    found = nearest_mentions(corpus, probe.vector, k=5)

    assert found[0].mention == probe.mention
    assert found[0].similarity == pytest.approx(1.0, abs=1e-4)
    exact = np.argsort(-(matrix @ np.array(probe.vector)))[:5]
    assert [n.mention.pk for n in found] == [rows[i].mention_id for i in exact]
    assert all(n.mention.text == "machine translation" for n in found)
    # The index serves the selector's own query once the planner may not read the (here
    # tiny) table another way; on a real corpus the encoding filter selects most rows and the
    # index is the cheap plan.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ANALYZE corpus_mentionvector")
        for method in ("seqscan", "bitmapscan", "sort"):
            cursor.execute(f"SET LOCAL enable_{method} = off")
        plan = nearest_vectors(encoding, probe.vector)[:5].explain()
    assert "corpus_vector_hnsw_384" in plan, plan


def test_an_encoder_change_keeps_the_old_vectors_until_the_new_ones_are_complete(
    corpus, second_encoder
):
    old = encode(corpus)
    run_chunks(old)
    new = encode(corpus, encoder_path=second_encoder)
    assert new.pk != old.pk
    assert new.encoder == str(Path(second_encoder).resolve())

    run_chunks(new, count=2)  # one chunk still to go

    corpus.refresh_from_db()
    new.refresh_from_db()
    assert corpus.active_encoding == old
    assert new.status == "building"
    assert MentionVector.objects.filter(encoding=old).count() == 120
    assert MentionVector.objects.filter(encoding=new).count() == 80
    probe = MentionVector.objects.filter(encoding=old).first()
    answer = nearest_mentions(corpus, probe.vector, k=3)
    assert len(answer) == 3  # the old vectors answer, the new ones beside them do not shorten it

    run_chunks(new)

    corpus.refresh_from_db()
    old.refresh_from_db()
    assert corpus.active_encoding == new
    assert old.status == "superseded"
    assert not MentionVector.objects.filter(encoding=old).exists()
    assert MentionVector.objects.filter(encoding=new).count() == 120


def test_a_chunk_taken_over_from_a_paused_worker_is_stored_once(corpus, settings):
    encoding = encode(corpus)
    chunk = encoding.chunks.order_by("index").first()
    paused = lifecycle.claim(EncodeChunk, chunk.pk, worker="worker-a").job
    mention_ids, vectors = encoding_service.chunk_vectors(paused)
    stale = timezone.now() - timedelta(seconds=settings.SUGGEST_HEARTBEAT_STALE_SECONDS + 5)
    EncodeChunk.objects.filter(pk=chunk.pk).update(heartbeat_at=stale)

    outcome = encoding_service.encode_chunk_execute(chunk_id=chunk.pk, worker="worker-b")
    # the paused worker wakes and stores
    late = encoding_service.chunk_store(paused, mention_ids=mention_ids, vectors=vectors)

    assert outcome.startswith("succeeded"), outcome
    assert late is False
    chunk.refresh_from_db()
    assert (chunk.status, chunk.attempts, chunk.worker) == ("succeeded", 2, "worker-b")
    assert MentionVector.objects.filter(encoding=encoding).count() == chunk.mentions
    with pytest.raises(IntegrityError), transaction.atomic():  # and the table refuses a copy
        MentionVector.objects.create(
            encoding=encoding, mention_id=mention_ids[0], dim=384, vector=vectors[0]
        )


def test_encoding_requests_are_checked(corpus, admin_client, second_encoder):
    outside = admin_client.post(
        f"/api/corpora/{corpus.pk}/encodings/", {"encoder_path": "/etc"}, format="json"
    )
    assert outside.status_code == 422, outside.content
    assert "MODEL_PATHS_ALLOWED" in outside.json()["message"]

    started = admin_client.post(f"/api/corpora/{corpus.pk}/encodings/", {}, format="json")
    assert started.status_code == 202, started.content
    assert started.json()["encodings"][0]["chunks_total"] == 1  # 120 mentions, chunks of 512
    other = admin_client.post(
        f"/api/corpora/{corpus.pk}/encodings/", {"encoder_path": second_encoder}, format="json"
    )
    assert other.status_code == 409, other.content
    assert not CorpusEncoding.objects.filter(encoder__contains="other-minilm").exists()
