"""The corpus endpoints' payloads."""

from __future__ import annotations

from rest_framework import serializers

from annotation.models import Project
from corpus.api.fields import format_name
from corpus.models import CorpusImport
from corpus.reading import CORPUS_FORMATS


class CorpusRequest(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    description = serializers.CharField(allow_blank=True, default="")
    projects = serializers.PrimaryKeyRelatedField(
        queryset=Project.objects.all(), many=True, default=list
    )


class EncodingSummary(serializers.Serializer):
    id = serializers.IntegerField()
    encoder = serializers.CharField()
    dim = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    message = serializers.CharField()
    created_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)
    chunks_total = serializers.IntegerField()
    chunks_done = serializers.IntegerField()
    chunks_failed = serializers.IntegerField()
    progress = serializers.FloatField()


class CorpusSummary(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    documents = serializers.IntegerField()
    mentions = serializers.IntegerField()
    active_encoding = serializers.IntegerField(allow_null=True)
    encodings = EncodingSummary(many=True)


class CorpusImportRequest(serializers.Serializer):
    file = serializers.FileField(
        error_messages={
            "empty": "The file is empty: there is nothing to import.",
            "required": "Choose a file to import.",
            "invalid": "No file was received: choose a file to import.",
        }
    )
    format = format_name(CORPUS_FORMATS)


class CorpusImportPayload(serializers.ModelSerializer):
    job = serializers.IntegerField(source="pk")

    class Meta:
        model = CorpusImport
        fields = (
            "job",
            "corpus",
            "file_name",
            "format",
            "status",
            "progress",
            "message",
            "attempts",
            "documents_written",
            "documents_skipped",
            "mentions_written",
            "result",
            "errors",
            "created_at",
            "finished_at",
        )
