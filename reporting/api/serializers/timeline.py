"""An annotation's history for admins (reporting/selectors/timeline.py)."""

from __future__ import annotations

from rest_framework import serializers


class TimelineEntry(serializers.Serializer):
    version = serializers.IntegerField(help_text="the annotation's version after this operation")
    kind = serializers.ChoiceField(choices=["do", "undo", "redo"])
    name = serializers.CharField(help_text="the operation: assign, merge, import, ...")
    user = serializers.CharField(allow_null=True, help_text="null: the system (import, seed)")
    at = serializers.DateTimeField()
    changes = serializers.DictField(
        child=serializers.IntegerField(), help_text="what changed, in words, and how often"
    )
    target_version = serializers.IntegerField(
        allow_null=True, help_text="undo/redo: the version of the operation taken back or redone"
    )


class Timeline(serializers.Serializer):
    annotation = serializers.IntegerField()
    topic = serializers.CharField(help_text="the topic's external id")
    project = serializers.IntegerField()
    project_name = serializers.CharField()
    annotator = serializers.CharField(allow_null=True, help_text="null: imported gold")
    kind = serializers.CharField(help_text="annotator, adjudication or gold")
    status = serializers.CharField(allow_null=True)
    version = serializers.IntegerField()
    assigned_at = serializers.DateTimeField(allow_null=True)
    submitted_at = serializers.DateTimeField(
        allow_null=True, help_text="the last submission (submitting is not an operation)"
    )
    entries = TimelineEntry(many=True)
