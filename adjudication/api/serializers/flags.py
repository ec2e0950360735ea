"""Mention flags: an annotator's short comment on one mention for the adjudicator."""

from __future__ import annotations

from rest_framework import serializers


class FlagRequest(serializers.Serializer):
    comment = serializers.CharField(
        allow_blank=True, required=False, default="", trim_whitespace=False
    )


class Flag(serializers.Serializer):
    mention = serializers.IntegerField(source="mention_id")
    comment = serializers.CharField(allow_blank=True)
    updated_at = serializers.DateTimeField()
