"""Reads of a corpus: its counts and encodings' progress, and the mentions nearest a vector
under the active encoding's HNSW index (what candidate topics and query by example build on:
docs/corpus.md)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Count, Q
from django.db.models.functions import Cast
from pgvector.django import CosineDistance, VectorField

from corpus.models import Corpus, CorpusEncoding, CorpusMention, MentionVector
from foundation.jobs.models import JobStatus


@dataclass(frozen=True)
class Neighbour:
    mention: CorpusMention
    # cosine similarity (1 - distance), the vectors being unit length
    similarity: float


def nearest_mentions(
    corpus: Corpus,
    vector: Sequence[float],
    *,
    k: int = 10,
    encoding: CorpusEncoding | None = None,
    ef_search: int | None = None,
) -> list[Neighbour]:
    """The k mentions whose vectors are nearest `vector` (cosine), best first, from the HNSW
    index of the corpus's active encoding (or `encoding`). The filter on the encoding is
    applied during the index scan (pgvector's iterative scan), so an old encoding's vectors
    kept beside a new one's do not shorten the answer."""
    encoding = encoding or corpus.active_encoding
    if encoding is None or encoding.dim is None:
        return []
    with hnsw_scan(k=k, ef_search=ef_search):
        rows = list(nearest_vectors(encoding, vector).select_related("mention__document")[:k])
    # relaxed order: the index may hand back near-ties out of order
    rows.sort(key=lambda row: row.distance)
    return [Neighbour(row.mention, 1.0 - float(row.distance)) for row in rows]


@contextmanager
def hnsw_scan(*, k: int, ef_search: int | None = None) -> Iterator[None]:
    """A transaction whose HNSW scans look at `ef_search` candidates (at least 40, and twice
    k by default) and scan on past the filter on the encoding (pgvector's iterative scan), so
    that a filtered query still finds k rows; every nearest-vector query runs inside one."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL hnsw.ef_search = %s", [max(40, ef_search or 2 * k)])
            cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        yield


def nearest_vectors(encoding: CorpusEncoding, vector: Sequence[float]):
    """The encoding's vectors by cosine distance to `vector`, nearest first: the query the
    partial HNSW index of the encoding's size serves (its WHERE and ORDER BY match the
    index's `dim` condition and cast expression)."""
    dim = encoding.dim or 0
    return (
        MentionVector.objects.filter(encoding=encoding, dim=dim)
        .annotate(
            distance=CosineDistance(Cast("vector", VectorField(dimensions=dim)), list(vector))
        )
        .order_by("distance")
    )


def mention_vector(mention: CorpusMention, encoding: CorpusEncoding | None = None):
    """A mention's vector under the active encoding (or `encoding`); None if not encoded."""
    encoding = encoding or mention.corpus.active_encoding
    row = MentionVector.objects.filter(encoding=encoding, mention=mention).first()
    return None if row is None else row.vector


def corpora_summaries() -> list[dict]:
    return [corpus_summary(corpus) for corpus in Corpus.objects.order_by("name")]


def corpus_summary(corpus: Corpus) -> dict:
    """Counts and each encoding's progress, for the admin page."""
    encodings = (
        corpus.encodings.annotate(
            chunks_total=Count("chunks"),
            chunks_done=Count("chunks", filter=Q(chunks__status=JobStatus.SUCCEEDED)),
            chunks_failed=Count("chunks", filter=Q(chunks__status=JobStatus.FAILED)),
        )
        .order_by("-created_at")
        .values(
            "id",
            "encoder",
            "dim",
            "status",
            "message",
            "created_at",
            "completed_at",
            "chunks_total",
            "chunks_done",
            "chunks_failed",
        )
    )
    return {
        "id": corpus.pk,
        "name": corpus.name,
        "documents": corpus.documents.count(),
        "mentions": corpus.mentions.count(),
        "active_encoding": corpus.active_encoding_id,
        "encodings": [
            {**e, "progress": e["chunks_done"] / e["chunks_total"] if e["chunks_total"] else 0.0}
            for e in encodings
        ],
    }
