"""What the validation workspace reads (validation/selectors/workspace.py)."""

from __future__ import annotations

from rest_framework import serializers

from annotation.api.serializers.effects import decision
from annotation.api.serializers.fields import span_list
from annotation.api.serializers.projects import ValidationReason
from annotation.api.serializers.workspace import DocumentPayload, assignment_status


class ValidationDecisionPayload(serializers.Serializer):
    decision = decision()
    reason = serializers.CharField(allow_null=True)
    note = serializers.CharField(allow_blank=True)


class ValidationMention(serializers.Serializer):
    id = serializers.IntegerField()
    document = serializers.IntegerField()
    spans = span_list()
    cluster = serializers.IntegerField(help_text="the input cluster it was put in")
    confidence = serializers.FloatField(allow_null=True)


class ValidationCluster(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField(allow_blank=True)
    members = serializers.ListField(
        child=serializers.IntegerField(), help_text="most confident (or most typical) first"
    )


class ValidationTopic(serializers.Serializer):
    id = serializers.IntegerField()
    external_id = serializers.CharField()
    source = serializers.CharField(allow_blank=True)
    metadata = serializers.DictField()


class ValidationProject(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    guidelines = serializers.CharField(allow_blank=True)


class ValidationPayload(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    version = serializers.IntegerField()
    status = assignment_status()
    assignment = serializers.IntegerField(allow_null=True)
    annotator = serializers.CharField(allow_null=True)
    cursor = serializers.IntegerField(allow_null=True)
    can_undo = serializers.BooleanField()
    can_redo = serializers.BooleanField()
    topic = ValidationTopic()
    project = ValidationProject()
    reasons = ValidationReason(many=True)
    documents = DocumentPayload(many=True)
    clusters = ValidationCluster(many=True)
    mentions = ValidationMention(many=True, help_text="in document order")
    decisions = serializers.DictField(
        child=ValidationDecisionPayload(), help_text="mention id -> decision"
    )
    others = serializers.DictField(
        child=serializers.DictField(child=ValidationDecisionPayload()),
        help_text="adjudicator only: validator username -> mention id -> decision",
    )
