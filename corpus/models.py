"""A corpus's tables: documents and mentions (no workspace state: a corpus document is not a
topic until item by item it is put into one), the import jobs that fill them, and the
versioned encodings whose mention vectors pgvector indexes (docs/corpus.md)."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from pgvector.django import VectorField

from annotation.models import Project
from foundation.jobs.models import Job

# One HNSW index per vector size an encoder may have (MiniLM 384, BERT-base 768, large 1024):
# pgvector indexes only vectors of one declared size, so each index is partial on `dim` over
# the column cast to that size. An encoder of another size is refused before it encodes.
INDEXED_DIMENSIONS = (384, 768, 1024)


class Corpus(models.Model):
    name = models.CharField(max_length=200, unique=True)
    description = models.TextField(blank=True)
    # the projects whose members may query it (an annotator sees only their projects' corpora)
    projects = models.ManyToManyField(Project, blank=True, related_name="corpora")
    created_at = models.DateTimeField(auto_now_add=True)
    # The encoding queries read: switched in one write once a newer one is complete, so the
    # old vectors answer until then (services in modelserve/services/corpus_encoding.py).
    active_encoding = models.ForeignKey(
        "CorpusEncoding", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name_plural = "corpora"

    def __str__(self) -> str:
        return self.name


class CorpusDocument(models.Model):
    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="documents")
    doc_id = models.CharField(max_length=300)
    tokens = models.JSONField()
    # half-open token ranges [start, end), as corefscore's DocumentData
    sentences = models.JSONField(default=list)
    metadata = models.JSONField(default=dict, blank=True)
    # what the file held (tokens, sentences, mentions): a second import of the same document
    # is skipped as already there; one with other content under the same id is refused
    digest = models.CharField(max_length=64)
    source = models.CharField(max_length=300, blank=True, help_text="the file it came from")

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["corpus", "doc_id"], name="corpus_document_id_once")
        ]

    def __str__(self) -> str:
        return self.doc_id


class CorpusMention(models.Model):
    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="mentions")
    document = models.ForeignKey(CorpusDocument, on_delete=models.CASCADE, related_name="mentions")
    # document-level token offsets, both ends inclusive (the project's convention)
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    # a discontinuous mention's spans [[s, e], ...]; null for one span (start..end)
    spans = models.JSONField(null=True, blank=True)
    label = models.CharField(max_length=100, blank=True)
    # the extractor's confidence (DyGIE++'s softmax), when the file gives one
    score = models.FloatField(null=True, blank=True)
    text = models.TextField(help_text="the surface form: the mention's tokens joined")

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["document", "start", "end", "label"], name="corpus_mention_once"
            ),
            models.CheckConstraint(
                condition=Q(end__gte=models.F("start")), name="corpus_mention_span"
            ),
        ]

    def __str__(self) -> str:
        return self.text


class CorpusImport(Job):
    """A corpus file imported by the general worker: read and checked whole, then written in
    batches of documents, each batch and the job's count in one transaction, so a take-over
    after a killed worker skips what was written (services/imports.py)."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="imports")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    file_name = models.CharField(max_length=300)
    format = models.CharField(max_length=20)
    path = models.CharField(max_length=1000, help_text="the stored upload, removed once run")
    documents_written = models.PositiveIntegerField(default=0)
    documents_skipped = models.PositiveIntegerField(default=0)
    mentions_written = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    errors = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"corpus import of {self.file_name} ({self.status})"


class EncodingStatus(models.TextChoices):
    BUILDING = "building"
    COMPLETE = "complete"
    FAILED = "failed"
    # a newer complete encoding replaced it: its vectors are removed
    SUPERSEDED = "superseded"


class CorpusEncoding(models.Model):
    """One encoder's vectors for one corpus: built chunk by chunk, then made the corpus's
    active encoding in one write when every chunk is stored."""

    Status = EncodingStatus

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="encodings")
    encoder = models.CharField(max_length=1000, help_text="the encoder folder, resolved")
    context = models.CharField(max_length=20, default="sentence")
    dim = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=20, choices=EncodingStatus.choices, default=EncodingStatus.BUILDING
    )
    chunk_size = models.PositiveIntegerField(default=512)
    message = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            # one encoding in the making per corpus, and one live row per (corpus, encoder)
            models.UniqueConstraint(
                fields=["corpus"],
                condition=Q(status="building"),
                name="corpus_one_encoding_building",
            ),
            models.UniqueConstraint(
                fields=["corpus", "encoder", "context"],
                condition=Q(status__in=["building", "complete"]),
                name="corpus_encoding_live_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.corpus} by {self.encoder} ({self.status})"


class EncodeChunk(Job):
    """A contiguous range of a corpus's documents (by id) whose mentions one model worker
    encodes and stores in one transaction, with its end (modelserve.tasks.encode_chunk)."""

    encoding = models.ForeignKey(CorpusEncoding, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    first_document = models.BigIntegerField()
    last_document = models.BigIntegerField()
    mentions = models.PositiveIntegerField()

    class Meta(Job.Meta):
        ordering: ClassVar[list[str]] = ["encoding", "index"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            *Job.Meta.constraints,
            models.UniqueConstraint(fields=["encoding", "index"], name="corpus_chunk_once"),
        ]

    def __str__(self) -> str:
        return f"chunk {self.index} of {self.encoding_id} ({self.status})"


class MentionVector(models.Model):
    id = models.BigAutoField(primary_key=True)
    encoding = models.ForeignKey(CorpusEncoding, on_delete=models.CASCADE, related_name="vectors")
    mention = models.ForeignKey(CorpusMention, on_delete=models.CASCADE, related_name="vectors")
    dim = models.PositiveSmallIntegerField()
    vector = VectorField()

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            # a chunk stored twice (two workers, a redelivered task) fails here, whole
            models.UniqueConstraint(fields=["encoding", "mention"], name="corpus_vector_once")
        ]
        # The HNSW indexes (one per INDEXED_DIMENSIONS, partial on `dim`, over the column
        # cast to that size) are SQL in migration 0002: Django renders an operator class over
        # a cast without the parentheses PostgreSQL needs around the expression.

    def __str__(self) -> str:
        return f"vector of mention {self.mention_id} by encoding {self.encoding_id}"


# Seed taxonomies and candidate topics: their own module, tables of this app.
from corpus.candidate_models import (
    Candidate,
    CandidateMention,
    CandidateRun,
    CandidateStatus,
    ConceptGroup,
    GroupKind,
    TopicRetrieval,
)

__all__ = [
    "INDEXED_DIMENSIONS",
    "Candidate",
    "CandidateMention",
    "CandidateRun",
    "CandidateStatus",
    "ConceptGroup",
    "Corpus",
    "CorpusDocument",
    "CorpusEncoding",
    "CorpusImport",
    "CorpusMention",
    "EncodeChunk",
    "EncodingStatus",
    "GroupKind",
    "MentionVector",
    "TopicRetrieval",
]
