"""Seed taxonomies and the candidate topics retrieved for them (docs/corpus.md, "Concept
groups and candidate topics"): concept groups imported into a corpus, a retrieval run (a job
of the model workers, which hold the encoder), the candidates it made with the concept and
similarity that brought each mention in, and the record a created topic keeps of them.

Groups belong to a corpus, not a project: a group is retrieved against one corpus's index,
and one corpus serves several projects; the project is chosen when topics are created.
Imported by corpus.models, so the tables are the corpus app's."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models

from annotation.models import Project, Topic
from foundation.jobs.models import Job


class GroupKind(models.TextChoices):
    # a parent concept with its children (Papers With Code's hierarchy, a parent,child CSV)
    HIERARCHY = "hierarchy"
    # a hand-curated group of lexically diverse concepts
    FLAT = "flat"


class ConceptGroup(models.Model):
    Kind = GroupKind

    corpus = models.ForeignKey(
        "corpus.Corpus", on_delete=models.CASCADE, related_name="concept_groups"
    )
    taxonomy = models.CharField(max_length=200, help_text="the file or name it was imported as")
    kind = models.CharField(max_length=20, choices=GroupKind.choices)
    name = models.CharField(max_length=300)
    # the concepts retrieved for: a hierarchy group's parent first, then its children
    concepts = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["corpus", "taxonomy", "name"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["corpus", "taxonomy", "name"], name="corpus_concept_group_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.taxonomy}: {self.name}"


class CandidateRun(Job):
    """Candidate topics for some of a corpus's groups: every concept encoded by the encoding's
    own encoder on a model worker, its top K mentions retrieved from the index, and the
    union per group kept within the run's floor and size limits."""

    corpus = models.ForeignKey(
        "corpus.Corpus", on_delete=models.CASCADE, related_name="candidate_runs"
    )
    # the vectors retrieved from: a candidate stays tied to them after an encoder change
    encoding = models.ForeignKey(
        "corpus.CorpusEncoding", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    encoder = models.CharField(max_length=1000)
    groups = models.ManyToManyField(ConceptGroup, related_name="runs")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    k = models.PositiveIntegerField(help_text="mentions retrieved per concept")
    floor = models.FloatField(help_text="the least cosine similarity a mention is kept at")
    max_mentions = models.PositiveIntegerField(help_text="a candidate's most mentions")
    min_mentions = models.PositiveIntegerField(help_text="fewer: the group makes no candidate")
    result = models.JSONField(null=True, blank=True)

    def __str__(self) -> str:
        return f"candidate run {self.pk} on {self.corpus_id} ({self.status})"


class CandidateStatus(models.TextChoices):
    OPEN = "open"
    # made into a topic: read-only from then on
    CREATED = "created"
    # left out by the admin: kept in the review, marked, until it is opened again
    REJECTED = "rejected"


class Candidate(models.Model):
    Status = CandidateStatus

    run = models.ForeignKey(CandidateRun, on_delete=models.CASCADE, related_name="candidates")
    name = models.CharField(max_length=300)
    # the groups and concepts it holds: two groups after a merge, fewer concepts after a split
    groups = models.JSONField(default=list)
    concepts = models.JSONField(default=list)
    status = models.CharField(
        max_length=20, choices=CandidateStatus.choices, default=CandidateStatus.OPEN
    )
    topic = models.ForeignKey(Topic, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering: ClassVar[list[str]] = ["run", "name", "id"]

    def __str__(self) -> str:
        return self.name


class CandidateMention(models.Model):
    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="members")
    mention = models.ForeignKey("corpus.CorpusMention", on_delete=models.CASCADE)
    # the concept that retrieved it (the most similar one, when several did)
    concept = models.CharField(max_length=300)
    similarity = models.FloatField()

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["candidate", "mention"], name="corpus_candidate_mention_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.mention_id} in {self.candidate_id} ({self.similarity:.3f})"


class TopicRetrieval(models.Model):
    """What made a topic created from a candidate: kept when the run, the candidate or the
    encoding is gone, for the dataset release's datasheet."""

    topic = models.OneToOneField(Topic, on_delete=models.CASCADE, related_name="retrieval")
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="+")
    corpus_name = models.CharField(max_length=200)
    run = models.ForeignKey(CandidateRun, null=True, on_delete=models.SET_NULL, related_name="+")
    encoding = models.ForeignKey(
        "corpus.CorpusEncoding", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    encoder = models.CharField(max_length=1000)
    groups = models.JSONField(default=list)
    concepts = models.JSONField(default=list)
    k = models.PositiveIntegerField()
    floor = models.FloatField()
    max_mentions = models.PositiveIntegerField()
    # per topic mention, in the topic's mention order: its document, span, text, the concept
    # that retrieved it and the similarity
    scores = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"retrieval of topic {self.topic_id}"
