"""The admin pages' bulk action that assigns seeded adjudications (POST /api/adjudications/)."""

from __future__ import annotations

from rest_framework import serializers


class AdjudicateRequest(serializers.Serializer):
    project = serializers.IntegerField()
    user = serializers.IntegerField(help_text="the adjudicator")
    topics = serializers.ListField(
        child=serializers.IntegerField(),
        default=list,
        max_length=100_000,
        help_text="topic ids; none: every topic with at least two submitted annotations",
    )
    seed = serializers.CharField(
        default="consensus",
        max_length=150,
        help_text='"consensus", "empty", or the username of an annotator who submitted',
    )
    threshold = serializers.FloatField(default=0.5, min_value=0.0, max_value=0.99)
    submit = serializers.BooleanField(default=False, help_text="accept each seed as it is")


class AdjudicationsCreated(serializers.Serializer):
    user = serializers.CharField()
    created = serializers.ListField(child=serializers.CharField(), help_text="topic external ids")
    skipped = serializers.ListField(
        child=serializers.CharField(), help_text="topics this user already adjudicates"
    )
    submitted = serializers.IntegerField()
