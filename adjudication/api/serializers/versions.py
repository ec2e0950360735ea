"""What the adjudication workspace reads besides the usual topic and annotation: the
annotators' submitted versions (adjudication/selectors/versions.py)."""

from __future__ import annotations

from rest_framework import serializers

from annotation.api.serializers.fields import span_list
from annotation.api.serializers.workspace import LinkPart


class VersionCluster(serializers.Serializer):
    id = serializers.IntegerField(help_text="the cluster's id in the annotator's annotation")
    label = serializers.CharField()
    members = serializers.ListField(child=serializers.IntegerField(), help_text="mention ids")


class AddedMention(serializers.Serializer):
    id = serializers.IntegerField(help_text="the id in the annotator's annotation only")
    document = serializers.IntegerField()
    spans = span_list()


class MentionFlag(serializers.Serializer):
    mention = serializers.IntegerField()
    comment = serializers.CharField(allow_blank=True)


class AnnotatorVersion(serializers.Serializer):
    """One annotator's submitted annotation of the topic, read-only."""

    annotation = serializers.IntegerField()
    annotator = serializers.CharField(help_text="the annotator's username")
    submitted_at = serializers.DateTimeField(format=None, allow_null=True)
    clusters = VersionCluster(many=True)
    edges = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="[parent, child] pairs of this annotator's cluster ids",
    )
    links = serializers.ListField(
        child=serializers.ListField(child=LinkPart(), min_length=3, max_length=3),
        help_text="[type, anaphor, antecedent] triples",
    )
    rejected = serializers.ListField(
        child=serializers.IntegerField(), help_text="mentions this annotator rejected"
    )
    added = AddedMention(many=True, help_text="mentions this annotator added")
    flags = MentionFlag(many=True, help_text="mentions this annotator flagged for you")
