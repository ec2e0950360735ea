"""Where annotators' time goes (reporting/selectors/time_report.py, docs/time-spent.md), and
the workspace's report of suggestions it showed."""

from __future__ import annotations

from rest_framework import serializers


class KindTime(serializers.Serializer):
    count = serializers.IntegerField(help_text="decisions with a time")
    total_seconds = serializers.FloatField()
    median_seconds = serializers.FloatField(allow_null=True)
    mean_seconds = serializers.FloatField(allow_null=True)
    excluded = serializers.IntegerField(
        help_text="decisions without a time: first in their topic, or after an idle gap"
    )


class AcceptanceLatency(serializers.Serializer):
    accepted = serializers.IntegerField(help_text="acceptances of a suggestion seen shown")
    unseen = serializers.IntegerField(help_text="acceptances without a recorded display")
    median_seconds = serializers.FloatField(allow_null=True)
    rubber_stamping = serializers.BooleanField(help_text="median under 500 ms (Potato)")


class GoldTopic(serializers.Serializer):
    order = serializers.IntegerField(help_text="1 = the annotator's first submitted topic")
    topic = serializers.IntegerField()
    external_id = serializers.CharField()
    submitted_at = serializers.DateTimeField(allow_null=True)
    week = serializers.CharField(help_text="ISO week, e.g. 2026-W07")
    score = serializers.FloatField(allow_null=True)


class GoldWeek(serializers.Serializer):
    week = serializers.CharField()
    topics = serializers.IntegerField()
    score = serializers.FloatField(allow_null=True, help_text="mean of the week's topic scores")


class GoldOverTime(serializers.Serializer):
    topics = GoldTopic(many=True)
    weeks = GoldWeek(many=True)


class AnnotatorTime(serializers.Serializer):
    annotator = serializers.CharField()
    kinds = serializers.DictField(child=KindTime(), help_text="decision kind -> its times")
    acceptance = AcceptanceLatency()
    gold = GoldOverTime()


class TimeReport(serializers.Serializer):
    idle_cap_seconds = serializers.IntegerField()
    rubber_stamp_seconds = serializers.FloatField()
    kinds = serializers.ListField(child=serializers.CharField(), help_text="in report order")
    gold_metric = serializers.CharField(
        allow_null=True, help_text="conll_f1, relation_exact_f1, or null (validation projects)"
    )
    annotators = AnnotatorTime(many=True)


class ShownSuggestion(serializers.Serializer):
    suggestion = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    age_ms = serializers.IntegerField(
        min_value=0, max_value=3_600_000, help_text="how long ago the workspace showed it"
    )


class SuggestionsShownRequest(serializers.Serializer):
    shown = serializers.ListField(child=ShownSuggestion(), allow_empty=False, max_length=500)
