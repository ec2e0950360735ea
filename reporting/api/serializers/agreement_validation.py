"""The agreement report's validation section (validation projects only).

The report and its shape are reporting's (reporting/api/serializers/agreement.py); the
validation app computes the section (validation/selectors/measures.py, registered through
annotation/validation_hooks.py), so its serializer lives here, beside the gold section's.
A reason's own shape (`ValidationReason`) is the project's: annotation/api/serializers/projects.py.
"""

from __future__ import annotations

from rest_framework import serializers

from annotation.api.serializers.projects import ValidationReason


class ReasonCount(serializers.Serializer):
    count = serializers.IntegerField()
    rate = serializers.FloatField(allow_null=True, help_text="share of the decided mentions")


class ValidatorMeasures(serializers.Serializer):
    validator = serializers.CharField()
    topics = serializers.IntegerField(help_text="topics the validator has submitted")
    decided = serializers.IntegerField()
    accepted = serializers.IntegerField()
    rejected = serializers.IntegerField()
    acceptance_rate = serializers.FloatField(allow_null=True)
    by_reason = serializers.DictField(child=ReasonCount(), help_text="reason key -> rejections")
    active_seconds = serializers.FloatField(help_text="with the progress matrix's idle cap")
    per_hour = serializers.FloatField(
        allow_null=True, help_text="mentions decided per hour of active time (gaps capped)"
    )
    accepted_per_hour = serializers.FloatField(
        allow_null=True,
        help_text="mentions accepted per hour of active time (gaps capped): reads higher than "
        "WEC's rate, which is per elapsed hour",
    )
    elapsed_seconds = serializers.FloatField(
        help_text="first to last operation of each annotation, pauses included"
    )
    per_elapsed_hour = serializers.FloatField(
        allow_null=True, help_text="mentions decided per elapsed hour"
    )
    accepted_per_elapsed_hour = serializers.FloatField(
        allow_null=True,
        help_text="mentions accepted per elapsed hour: WEC's 'valid mentions per hour' (3.3)",
    )
    precision = serializers.FloatField(allow_null=True, help_text="against the consolidated")
    recall = serializers.FloatField(allow_null=True)
    f1 = serializers.FloatField(allow_null=True)
    compared = serializers.IntegerField(help_text="mentions compared with the consolidated")
    kappa_consolidated = serializers.FloatField(
        allow_null=True, help_text="Cohen's kappa against the consolidated validation (WEC 3.3)"
    )


class ValidatorPair(serializers.Serializer):
    validators = serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2)
    topics = serializers.IntegerField()
    mentions = serializers.IntegerField()
    agreement = serializers.FloatField(allow_null=True)
    kappa = serializers.FloatField(allow_null=True, help_text="Cohen's kappa on accept/reject")


class ValidationMeasures(serializers.Serializer):
    """validation/selectors/measures.py (docs/validation.md)."""

    reasons = ValidationReason(many=True)
    idle_cap_seconds = serializers.IntegerField()
    consolidated_topics = serializers.IntegerField()
    validators = ValidatorMeasures(many=True)
    pairs = ValidatorPair(many=True)
    kappa = serializers.FloatField(allow_null=True, help_text="pooled over every pair")
