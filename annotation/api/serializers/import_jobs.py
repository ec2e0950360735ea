"""An import job as the import page polls it (annotation/services/imports/jobs.py)."""

from __future__ import annotations

from rest_framework import serializers

from annotation.models import ImportJob


class ImportJobResult(serializers.Serializer):
    summary = serializers.CharField()
    topics = serializers.ListField(child=serializers.CharField())
    mentions = serializers.IntegerField()
    gold = serializers.IntegerField()
    # (jobs finished before seeds were told apart have none: 0)
    seeded = serializers.IntegerField(default=0)
    warnings = serializers.ListField(child=serializers.CharField())
    skipped = serializers.ListField(child=serializers.CharField())


class ImportJobPayload(serializers.Serializer):
    job = serializers.IntegerField(source="pk")
    file = serializers.CharField(source="file_name")
    status = serializers.ChoiceField(choices=ImportJob.Status.choices)
    progress = serializers.FloatField(help_text="0 to 1")
    message = serializers.CharField(help_text="what it does now, or how it ended")
    result = ImportJobResult(allow_null=True, help_text="once succeeded")
    errors = serializers.ListField(
        child=serializers.CharField(), help_text="once failed: every error, nothing imported"
    )
