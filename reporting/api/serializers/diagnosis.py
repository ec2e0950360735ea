"""The diagnosis of disagreement on one topic (reporting/selectors/diagnosis.py), both ways:
the query it reads and the payload it answers."""

from __future__ import annotations

from rest_framework import serializers


class DiagnosisQuery(serializers.Serializer):
    topic = serializers.CharField(help_text="the topic's external id (as the report names it)")
    gold = serializers.BooleanField(
        default=False, help_text="compare with the topic's gold (adjudicated, else imported)"
    )
    annotator = serializers.CharField(
        default="", allow_blank=True, help_text="only this annotator (default: all who submitted)"
    )
    format = serializers.ChoiceField(choices=["json", "csv"], default="json")


class DiagnosisTopic(serializers.Serializer):
    id = serializers.IntegerField()
    external_id = serializers.CharField()


class DiagnosisSide(serializers.Serializer):
    name = serializers.CharField(help_text='a username, or "gold"')
    annotation = serializers.IntegerField(help_text="its annotation (the review view opens it)")
    kind = serializers.ChoiceField(choices=["annotator", "adjudication", "gold"])


class DiagnosisCluster(serializers.Serializer):
    label = serializers.CharField(allow_blank=True)
    members = serializers.ListField(child=serializers.CharField(), help_text="member texts")


class DiagnosisMention(serializers.Serializer):
    text = serializers.CharField(allow_blank=True)
    document = serializers.IntegerField()
    spans = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    ids = serializers.DictField(
        child=serializers.IntegerField(allow_null=True),
        help_text="side -> the mention's id in that side's annotation (null: it lacks it)",
    )
    clusters = serializers.DictField(
        child=DiagnosisCluster(allow_null=True),
        help_text="side -> the mention's cluster there (null: it lacks the mention)",
    )


class DiagnosisEdge(serializers.Serializer):
    parent = DiagnosisCluster()
    child = DiagnosisCluster()
    present = serializers.ListField(child=serializers.CharField())
    absent = serializers.ListField(child=serializers.CharField())


class DiagnosisLink(serializers.Serializer):
    type = serializers.CharField()
    anaphor = serializers.CharField(allow_blank=True)
    antecedent = serializers.CharField(allow_blank=True)
    anaphor_ids = serializers.DictField(child=serializers.IntegerField(allow_null=True))
    present = serializers.ListField(child=serializers.CharField())
    absent = serializers.ListField(child=serializers.CharField())


class DiagnosisPayload(serializers.Serializer):
    topic = DiagnosisTopic()
    gold = serializers.BooleanField()
    sides = DiagnosisSide(many=True)
    mentions = DiagnosisMention(many=True)
    edges = DiagnosisEdge(many=True)
    links = DiagnosisLink(many=True)
