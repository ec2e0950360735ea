"""The agreement report (reporting/selectors/agreement.py `project_agreement`): the pairs'
scores per topic and overall, the annotator-vs-gold section and, for validation projects,
the validation section."""

from __future__ import annotations

from rest_framework import serializers

from annotation.api.serializers.fields import Number
from reporting.api.serializers.agreement_gold import VsGoldSection
from reporting.api.serializers.agreement_validation import ValidationMeasures


def score(**kwargs) -> Number:
    return Number(
        allow_null=True,
        help_text="null: undefined, nothing to score on either side (undefined_reasons says "
        "why); left out of every mean and maximum",
        **kwargs,
    )


def interval() -> serializers.ListField:
    return serializers.ListField(
        child=Number(),
        min_length=2,
        max_length=2,
        allow_null=True,
        required=False,
        help_text="95% bootstrap interval over topics [low, high] (1,000 seeded resamples); "
        "null: none for this metric (alpha), or too few topics (interval_note)",
    )


class TopicMetricScores(serializers.Serializer):
    avg = score()
    max = score()
    pairs = serializers.DictField(
        child=score(), help_text='"alice-bob" (usernames in annotator order) -> score'
    )


class OverallMetricScores(serializers.Serializer):
    avg = score()
    std = score()
    max_micro = score()
    max_macro = score()
    avg_ci = interval()
    max_micro_ci = interval()
    max_macro_ci = interval()
    topics = serializers.IntegerField(
        help_text="scored topics the figures rest on: those where the metric is defined"
    )
    interval_note = serializers.CharField(
        allow_null=True,
        help_text="why no interval is shown: fewer than interval_min_topics topics; null: "
        "the intervals stand",
    )


class LeftOutTopics(serializers.Serializer):
    topics = serializers.ListField(child=serializers.CharField(), help_text="external ids")
    reason = serializers.CharField(help_text="why they are left out, in words")


class LeftOut(serializers.Serializer):
    practice = LeftOutTopics(help_text="practice topics with submitted work")
    unscored = LeftOutTopics(help_text="topics fewer than two annotators submitted")
    undefined = serializers.DictField(
        child=LeftOutTopics(),
        help_text="metric -> scored topics where it is undefined for every pair (only metrics "
        "with such topics)",
    )


class AttributePairScores(serializers.Serializer):
    units = serializers.IntegerField(
        help_text="links both drew, one of them with a value of the attribute"
    )
    observed = serializers.FloatField(allow_null=True, help_text="the share with equal values")
    kappa = serializers.FloatField(allow_null=True, help_text="Cohen's kappa")


class AttributeAgreement(serializers.Serializer):
    units = serializers.IntegerField(help_text="units compared, over every annotator pair")
    observed = serializers.FloatField(allow_null=True)
    alpha = serializers.FloatField(
        allow_null=True, help_text="Krippendorff's alpha (nominal) over every annotator"
    )
    pairs = serializers.DictField(child=AttributePairScores(), help_text="a-b -> scores")


class AgreementReport(serializers.Serializer):
    """reporting/selectors/agreement.py `project_agreement`."""

    project = serializers.CharField(help_text="its name")
    scheme = serializers.CharField(help_text="hierarchy, anaphora or hierarchy+anaphora")
    annotators = serializers.ListField(child=serializers.CharField())
    hierarchy_count = serializers.ChoiceField(
        choices=["closure", "raw"],
        help_text="the project's primary hierarchy F1: hierarchy_f1 (closure, SciCo's) or "
        "hierarchy_f1_raw (raw edges, not SciCo's)",
    )
    notices = serializers.ListField(
        child=serializers.CharField(),
        help_text="what the page tells the project's admins above the figures (e.g. that the "
        "primary hierarchy F1 was moved to SciCo's count)",
    )
    topics = serializers.DictField(
        child=serializers.DictField(child=TopicMetricScores()),
        help_text="topic external id -> metric -> scores",
    )
    overall = serializers.DictField(child=OverallMetricScores(), help_text="metric -> scores")
    unscored_topics = serializers.ListField(
        child=serializers.CharField(), help_text="topics fewer than two annotators submitted"
    )
    undefined_reasons = serializers.DictField(
        child=serializers.CharField(),
        help_text="metric -> why its score is null where it is (nothing to score on either side)",
    )
    left_out = LeftOut(help_text="what the report leaves out, and why (with the topics)")
    interval_min_topics = serializers.IntegerField(
        help_text="fewer topics than this: no bootstrap interval (not meaningful)"
    )
    vs_gold = VsGoldSection(help_text="each annotator against the topics' gold")
    validation = ValidationMeasures(required=False, help_text="validation projects only")
    attributes = serializers.DictField(
        child=AttributeAgreement(),
        required=False,
        help_text="attribute name -> agreement on it where two annotators drew the same link "
        "(projects with link attributes)",
    )
