"""How much of its topics' mentions a gold clusters (selectors/gold.py: GoldCoverage), as
every report built on the gold carries it."""

from __future__ import annotations

from rest_framework import serializers


class GoldCoverageSummary(serializers.Serializer):
    covered = serializers.IntegerField(help_text="mentions in a gold cluster")
    mentions = serializers.IntegerField(help_text="the gold topics' mentions")
    topics = serializers.IntegerField(help_text="gold topics")
    partial_topics = serializers.IntegerField(help_text="gold topics with unclustered mentions")


def gold_coverage_field() -> GoldCoverageSummary:
    return GoldCoverageSummary(
        allow_null=True,
        help_text="null when the gold clusters every mention of its topics; otherwise how much "
        "it covers (scores against a partial gold are low by construction)",
    )
