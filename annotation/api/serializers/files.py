"""What the admin's file endpoints answer: an import's summary."""

from __future__ import annotations

from rest_framework import serializers

from annotation.services.imports.topics import skipped_line


class SkippedLine(serializers.CharField):
    """A record left out of an import, as the import command prints it."""

    def to_representation(self, value) -> str:
        return skipped_line(value)


class ImportSummary(serializers.Serializer):
    """What an upload imported (annotation.services.imports.topics.ImportResult)."""

    summary = serializers.CharField(source="*", help_text="the line the import command prints")
    topics = serializers.ListField(child=serializers.CharField(), help_text="their external ids")
    mentions = serializers.IntegerField()
    gold = serializers.IntegerField(help_text="topics imported with a gold annotation")
    seeded = serializers.IntegerField(
        help_text="topics whose file's clusters are a seed every annotator starts from, not gold "
        "(a CoRefi file that gives only some mentions a cluster id)"
    )
    warnings = serializers.ListField(child=serializers.CharField())
    skipped = serializers.ListField(child=SkippedLine())
