"""Payloads of concept groups, candidate runs and the candidate review."""

from __future__ import annotations

from rest_framework import serializers

from annotation.models import Project
from corpus.reading.taxonomies import TAXONOMY_FORMATS


class TaxonomyImportRequest(serializers.Serializer):
    file = serializers.FileField(
        error_messages={
            "empty": "The file is empty: there are no groups in it.",
            "required": "Choose a taxonomy file to import.",
            "invalid": "No file was received: choose a taxonomy file to import.",
        }
    )
    # a string, not a choice: the reader refuses an unknown one in words
    format = serializers.CharField(help_text="one of: " + ", ".join(TAXONOMY_FORMATS))
    name = serializers.CharField(
        max_length=200, allow_blank=True, default="", help_text="default: the file's name"
    )


class ConceptGroupPayload(serializers.Serializer):
    id = serializers.IntegerField()
    taxonomy = serializers.CharField()
    kind = serializers.CharField()
    name = serializers.CharField()
    concepts = serializers.ListField(child=serializers.CharField())


class CandidateRunRequest(serializers.Serializer):
    groups = serializers.ListField(
        child=serializers.IntegerField(), help_text="concept group ids; empty: all the corpus's"
    )
    k = serializers.IntegerField(default=50, help_text="mentions retrieved per concept")
    floor = serializers.FloatField(default=0.5, help_text="the least cosine similarity kept")
    max_mentions = serializers.IntegerField(default=100, help_text="a candidate's most mentions")
    min_mentions = serializers.IntegerField(default=2, help_text="fewer: no candidate")


class CandidateRunPayload(serializers.Serializer):
    id = serializers.IntegerField()
    corpus = serializers.IntegerField()
    encoding = serializers.IntegerField(allow_null=True)
    encoder = serializers.CharField()
    k = serializers.IntegerField()
    floor = serializers.FloatField()
    max_mentions = serializers.IntegerField()
    min_mentions = serializers.IntegerField()
    groups = serializers.IntegerField()
    status = serializers.CharField()
    progress = serializers.FloatField()
    message = serializers.CharField()
    result = serializers.JSONField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class CandidateMemberPayload(serializers.Serializer):
    mention = serializers.IntegerField()
    text = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]
    concept = serializers.CharField(help_text="the concept that retrieved it")
    similarity = serializers.FloatField()
    document = serializers.CharField()
    before = serializers.CharField(help_text="its sentence's words before it")
    after = serializers.CharField()
    shared_with = serializers.ListField(
        child=serializers.IntegerField(), help_text="the run's other candidates holding it"
    )


class CandidateOverlapPayload(serializers.Serializer):
    candidate = serializers.IntegerField()
    name = serializers.CharField()
    shared = serializers.IntegerField()


class CandidatePayload(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    groups = serializers.ListField(child=serializers.CharField())
    concepts = serializers.ListField(child=serializers.CharField())
    status = serializers.CharField()
    topic = serializers.IntegerField(allow_null=True)
    project = serializers.CharField(allow_null=True)
    mentions = serializers.IntegerField()
    documents = serializers.IntegerField()
    best = serializers.FloatField(allow_null=True)
    worst = serializers.FloatField(allow_null=True)
    overlap = CandidateOverlapPayload(many=True)
    members = CandidateMemberPayload(many=True)


class CandidateReviewPayload(CandidateRunPayload):
    candidates = CandidatePayload(many=True)


class CandidateDropRequest(serializers.Serializer):
    mentions = serializers.ListField(child=serializers.IntegerField(), min_length=1)


class CandidateMergeRequest(serializers.Serializer):
    other = serializers.IntegerField(help_text="the candidate merged into this one")


class CandidateUpdateRequest(serializers.Serializer):
    name = serializers.CharField(
        max_length=300,
        required=False,
        help_text="the candidate's, and its topic's, new name",
        error_messages={"blank": "Give the candidate a name: its topic is named after it."},
    )
    rejected = serializers.BooleanField(
        required=False, help_text="true: reject it; false: open a rejected candidate again"
    )


class CandidateSplitRequest(serializers.Serializer):
    concepts = serializers.ListField(child=serializers.CharField(), min_length=1)


class CandidateTopicsRequest(serializers.Serializer):
    project = serializers.PrimaryKeyRelatedField(queryset=Project.objects.all())
    candidates = serializers.ListField(child=serializers.IntegerField(), min_length=1)


class CreatedTopicPayload(serializers.Serializer):
    id = serializers.IntegerField()
    external_id = serializers.CharField()
