"""The agreement report's annotator-vs-gold section (reporting/selectors/agreement_gold.py)."""

from __future__ import annotations

from rest_framework import serializers

from annotation.api.serializers.fields import Number
from annotation.api.serializers.gold import gold_coverage_field


def _score(help_text: str) -> Number:
    return Number(allow_null=True, help_text=help_text)


class PrecisionRecallF1(serializers.Serializer):
    precision = _score("null for conll (an average of F1 scores)")
    recall = _score("null for conll (an average of F1 scores)")
    f1 = _score("micro over the topics")


class AnnotatorVsGold(serializers.Serializer):
    annotator = serializers.CharField()
    topics = serializers.IntegerField(help_text="topics with gold that this annotator submitted")
    scores = serializers.DictField(child=PrecisionRecallF1(), help_text="metric -> scores")


class VsGoldSection(serializers.Serializer):
    gold_topics = serializers.IntegerField(help_text="topics with gold (adjudicated or imported)")
    adjudicated_topics = serializers.IntegerField(help_text="of which gold is an adjudication")
    metrics = serializers.ListField(child=serializers.CharField(), help_text="in report order")
    annotators = AnnotatorVsGold(many=True)
    gold_coverage = gold_coverage_field()
