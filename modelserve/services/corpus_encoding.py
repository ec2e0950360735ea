"""A corpus's mentions encoded on the model workers, chunk by chunk, into versioned encodings
(docs/corpus.md, "Encoding").

`corpus_encoding_start` plans an encoding for one encoder (the packaged MiniLM by default, or
any encoder folder the server allows): contiguous ranges of documents of about `chunk_size`
mentions, one `EncodeChunk` job and one task each, sent after commit to the default model
queue. A worker claims its chunk (foundation/jobs/lifecycle.py), encodes every mention with
its surface form in its sentence (modelserve.encoders.MentionEncoder), and stores the vectors
with the chunk's end in one transaction that first checks it still owns the chunk. A killed
worker's task is redelivered (acks late) and the chunk taken over once its heartbeat is
stale; a worker that was only paused stores nothing after a take-over, and the vectors' unique
(encoding, mention) refuses any second copy. The chunk that completes the encoding switches
the corpus's active encoding to it in the same transaction; queries read the old vectors until
then, and they are removed after the switch commits.
"""

from __future__ import annotations

import functools
import json
import logging
from pathlib import Path

from celery import current_app
from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import Count
from django.utils import timezone

from annotation.errors import Conflict, ImportRefused
from corefscore.corpus import DocumentData, MentionData, TopicData
from corpus.models import (
    INDEXED_DIMENSIONS,
    Corpus,
    CorpusDocument,
    CorpusEncoding,
    EncodeChunk,
    EncodingStatus,
    MentionVector,
)
from foundation.jobs import lifecycle
from foundation.jobs.models import JobStatus
from foundation.side_effects import after_commit
from modelserve.backends import DEFAULT_BACKEND
from modelserve.queues import backend_queue
from modelserve.services.settings import model_path_checked

logger = logging.getLogger(__name__)

ENCODE_TASK = "modelserve.encode_corpus_chunk"
CONTEXT = "sentence"


def encoder_checked(encoder_path: str | None) -> tuple[str, int]:
    """The encoder folder, resolved (the packaged MiniLM for None; else inside the folders
    the server allows, as every model path), and its vector size, read from its config
    without loading it: the web process never loads a model."""
    # imported here: modelserve.encoders imports torch and transformers, which the web
    # process must not load (tests/corefapp/test_startup_imports.py)
    from modelserve.encoders import default_encoder_path

    folder = (
        str(Path(default_encoder_path()).resolve())
        if encoder_path is None
        else model_path_checked("encoder_path", value=encoder_path)
    )
    try:
        config = json.loads((Path(folder) / "config.json").read_text())
        dim = int(config["hidden_size"])
    except (OSError, ValueError, KeyError, TypeError):
        raise ImportRefused(
            f"{folder} is not an encoder folder (it has no config.json with hidden_size)",
            [str(encoder_path)],
        ) from None
    if dim not in INDEXED_DIMENSIONS:
        raise ImportRefused(
            f"The encoder at {folder} makes vectors of {dim} numbers; the index takes "
            f"{', '.join(map(str, INDEXED_DIMENSIONS))}.",
            [str(encoder_path)],
        )
    return folder, dim


def corpus_encoding_start(
    *, corpus: Corpus, encoder_path: str | None = None, chunk_size: int = 512
) -> CorpusEncoding:
    """Encode the corpus with the encoder: a new encoding, or the live one for this encoder
    (unfinished chunks sent again; on a complete one, chunks for the documents imported
    since). Refused while another encoder's encoding is in the making."""
    encoder, dim = encoder_checked(encoder_path)
    with transaction.atomic():
        Corpus.objects.select_for_update().filter(pk=corpus.pk).first()
        live = CorpusEncoding.objects.filter(
            corpus=corpus,
            encoder=encoder,
            context=CONTEXT,
            status__in=[EncodingStatus.BUILDING, EncodingStatus.COMPLETE],
        ).first()
        if live is None:
            building = CorpusEncoding.objects.filter(
                corpus=corpus, status=EncodingStatus.BUILDING
            ).first()
            if building is not None:
                raise Conflict(
                    f"The corpus is being encoded by {Path(building.encoder).name}; wait for "
                    "it to finish (or fail) before starting another encoder."
                )
            if not corpus.mentions.exists():
                raise ImportRefused("The corpus has no mentions to encode yet.", [corpus.name])
            live = CorpusEncoding.objects.create(
                corpus=corpus, encoder=encoder, context=CONTEXT, dim=dim, chunk_size=chunk_size
            )
        after = live.chunks.order_by("-index").values_list("last_document", "index").first()
        after_document, first = (after[0], after[1] + 1) if after else (0, 0)
        planned = _plan(live, after_document=after_document, first=first)
        unfinished = list(live.chunks.active().values_list("pk", flat=True))
        live.message = f"{live.chunks.count():,} chunks"
        live.save(update_fields=["message"])
        after_commit(_send_all, unfinished)
    logger.info("encoding %s: %s new chunks, %s sent", live.pk, planned, len(unfinished))
    return live


def _plan(encoding: CorpusEncoding, *, after_document: int, first: int) -> int:
    """Chunks of contiguous documents (by id) holding about chunk_size mentions each."""
    counts = (
        CorpusDocument.objects.filter(corpus_id=encoding.corpus_id, pk__gt=after_document)
        .annotate(n=Count("mentions"))
        .filter(n__gt=0)
        .order_by("pk")
        .values_list("pk", "n")
    )
    chunks: list[EncodeChunk] = []
    start, size, last = None, 0, None
    for pk, n in counts.iterator(chunk_size=10_000):
        start = pk if start is None else start
        size, last = size + n, pk
        if size >= encoding.chunk_size:
            chunks.append(_chunk(encoding, first + len(chunks), start, last, size))
            start, size = None, 0
    if start is not None and last is not None:
        chunks.append(_chunk(encoding, first + len(chunks), start, last, size))
    EncodeChunk.objects.bulk_create(chunks, batch_size=5000)
    return len(chunks)


def _chunk(encoding: CorpusEncoding, index: int, first: int, last: int, n: int) -> EncodeChunk:
    return EncodeChunk(
        encoding=encoding,
        index=index,
        first_document=first,
        last_document=last,
        mentions=n,
        message="waiting for a model worker",
    )


def _send_all(chunk_ids: list[int]) -> None:
    for chunk_id in chunk_ids:
        lifecycle.send_or_fail(EncodeChunk, chunk_id, functools.partial(_send, chunk_id))


def _send(chunk_id: int) -> None:
    current_app.send_task(
        ENCODE_TASK, kwargs={"chunk_id": chunk_id}, queue=backend_queue(DEFAULT_BACKEND)
    )


def encode_chunk_execute(*, chunk_id: int, worker: str = "") -> str:
    """The task's body: claim the chunk, encode its mentions, store them with its end."""
    close_old_connections()
    claim = lifecycle.claim(EncodeChunk, chunk_id, worker=worker)
    if not claim.claimed:
        if claim.outcome == "exhausted":
            _fail_encoding(claim.job.encoding_id, claim.job.message)
        return claim.answer()
    chunk: EncodeChunk = claim.job
    encoding = chunk.encoding
    if encoding.status not in (EncodingStatus.BUILDING, EncodingStatus.COMPLETE):
        lifecycle.finish(chunk, JobStatus.FAILED, f"the encoding is {encoding.status}")
        return f"failed: the encoding is {encoding.status}"
    try:
        with lifecycle.Heartbeat(chunk):
            mention_ids, vectors = chunk_vectors(chunk)
            stored = chunk_store(chunk, mention_ids=mention_ids, vectors=vectors)
    except Exception as error:  # the chunk and its encoding record any failure
        logger.exception("encode chunk %s failed", chunk_id)
        message = f"{type(error).__name__}: {error}"
        if lifecycle.finish(chunk, JobStatus.FAILED, message):
            _fail_encoding(encoding.pk, f"chunk {chunk.index} failed: {message}")
        return f"failed: {message}"
    return f"succeeded: {len(mention_ids)} mentions" if stored else "skipped: taken over"


def chunk_vectors(chunk: EncodeChunk):
    """The chunk's mention ids and their vectors (rows L2-normalised), in the same order."""
    from modelserve.encoders import MentionEncoder

    documents = list(
        CorpusDocument.objects.filter(
            corpus_id=chunk.encoding.corpus_id,
            pk__gte=chunk.first_document,
            pk__lte=chunk.last_document,
        )
        .order_by("pk")
        .prefetch_related("mentions")
    )
    topic = TopicData(external_id=f"chunk-{chunk.pk}")
    mention_ids: list[int] = []
    for index, document in enumerate(documents):
        topic.documents.append(
            DocumentData(document.doc_id, document.tokens, [tuple(s) for s in document.sentences])
        )
        for mention in sorted(document.mentions.all(), key=lambda m: m.pk):
            spans = mention.spans or [[mention.start, mention.end]]
            topic.mentions.append(MentionData(index, tuple((s, e) for s, e in spans)))
            mention_ids.append(mention.pk)
    encoder = MentionEncoder(
        chunk.encoding.encoder, device=settings.SUGGEST_DEVICE, context=chunk.encoding.context
    )
    return mention_ids, encoder.embed(topic)


def chunk_store(chunk: EncodeChunk, *, mention_ids: list[int], vectors) -> bool:
    """Store the chunk's vectors and its end, and switch the corpus to the encoding if this
    was its last chunk: all in one transaction, only while this claim owns the chunk. False
    (nothing stored) when another worker took it over."""
    with transaction.atomic():
        if not lifecycle.still_owned(chunk):
            return False
        dim = int(vectors.shape[1])
        MentionVector.objects.bulk_create(
            (
                MentionVector(encoding_id=chunk.encoding_id, mention_id=m, dim=dim, vector=v)
                for m, v in zip(mention_ids, vectors, strict=True)
            ),
            batch_size=2000,
        )
        if not lifecycle.finish(
            chunk, JobStatus.SUCCEEDED, f"{len(mention_ids):,} mentions encoded"
        ):
            transaction.set_rollback(True)
            return False
        _complete_if_done(chunk.encoding_id)
    return True


def _complete_if_done(encoding_id: int) -> None:
    """Under the encoding's row lock (chunks finishing at once take turns, each seeing the
    others' commits): the last chunk makes the encoding complete and the corpus's active one,
    in one write; the older encodings are superseded, their vectors removed after commit."""
    encoding = CorpusEncoding.objects.select_for_update().get(pk=encoding_id)
    if encoding.status != EncodingStatus.BUILDING:
        return  # a top-up of the active encoding: nothing to switch
    if encoding.chunks.exclude(status=JobStatus.SUCCEEDED).exists():
        return
    older = list(
        CorpusEncoding.objects.filter(corpus_id=encoding.corpus_id, status=EncodingStatus.COMPLETE)
        .exclude(pk=encoding.pk)
        .values_list("pk", flat=True)
    )
    CorpusEncoding.objects.filter(pk__in=older).update(status=EncodingStatus.SUPERSEDED)
    encoding.status = EncodingStatus.COMPLETE
    encoding.completed_at = timezone.now()
    encoding.message = "complete"
    encoding.save(update_fields=["status", "completed_at", "message"])
    Corpus.objects.filter(pk=encoding.corpus_id).update(active_encoding=encoding)
    after_commit(_drop_vectors, older)


def _drop_vectors(encoding_ids: list[int]) -> None:
    if encoding_ids:
        MentionVector.objects.filter(encoding_id__in=encoding_ids).delete()


def _fail_encoding(encoding_id: int, message: str) -> None:
    """A chunk that failed fails an encoding in the making (the active one answers on);
    a top-up's failure leaves the complete encoding as it is."""
    CorpusEncoding.objects.filter(pk=encoding_id, status=EncodingStatus.BUILDING).update(
        status=EncodingStatus.FAILED, message=message[:300]
    )
