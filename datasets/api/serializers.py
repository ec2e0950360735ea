"""What the dataset endpoints answer and accept."""

from __future__ import annotations

from rest_framework import serializers

from datasets.services.splits import NAME_LENGTH


class LinkCounts(serializers.Serializer):
    COREFERENCE = serializers.IntegerField()
    TRANSFORMED = serializers.IntegerField()
    REACTION_ASSOCIATED = serializers.IntegerField()
    WORK_UP = serializers.IntegerField()
    CONTAINED = serializers.IntegerField()


class Stats(serializers.Serializer):
    """STATS (docs/datasets.md): every key present, 0 where a scheme does not apply."""

    topics = serializers.IntegerField()
    documents = serializers.IntegerField()
    tokens = serializers.IntegerField()
    mentions = serializers.IntegerField(help_text="rejected mentions excluded")
    discontinuous_mentions = serializers.IntegerField()
    clusters = serializers.IntegerField(help_text="singletons included")
    singletons = serializers.IntegerField()
    relations = serializers.IntegerField(help_text="hierarchy edges as drawn")
    mean_components = serializers.FloatField()
    mean_max_depth = serializers.FloatField()
    links = LinkCounts()
    anaphors = serializers.IntegerField()


class ClusterSize(serializers.Serializer):
    size = serializers.IntegerField()
    clusters = serializers.IntegerField()


class Depth(serializers.Serializer):
    depth = serializers.IntegerField()
    topics = serializers.IntegerField()


class TopicFigures(serializers.Serializer):
    id = serializers.IntegerField()
    external_id = serializers.CharField()
    split = serializers.CharField()
    mentions = serializers.IntegerField()
    clusters = serializers.IntegerField()
    max_depth = serializers.IntegerField()


class StatisticsPage(serializers.Serializer):
    source = serializers.CharField()
    total = Stats()
    splits = serializers.DictField(child=Stats(), help_text="split name -> STATS, in split order")
    cluster_sizes = ClusterSize(many=True)
    depths = Depth(many=True, help_text="depth of the largest component -> topics")
    topics = TopicFigures(many=True, help_text="one row per annotation of the source")


class StatisticsQuery(serializers.Serializer):
    source = serializers.CharField(required=False, allow_blank=True, default="")
    format = serializers.ChoiceField(choices=["json", "csv"], required=False, default="json")


class TopicSplit(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    split = serializers.CharField(
        max_length=NAME_LENGTH, allow_blank=True, help_text="'' takes the topic out of every split"
    )


class ProjectSplits(serializers.Serializer):
    names = serializers.ListField(child=serializers.CharField(), help_text="in split order")
    topics = TopicSplit(many=True)


class ReleaseRequest(serializers.Serializer):
    formats = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="default: scico (hierarchy), chemu (anaphora), brat (both), and conll",
    )
    with_names = serializers.BooleanField(
        default=False, help_text="name the annotators in the datasheet (by default only counted)"
    )


class StoredReleasePayload(serializers.Serializer):
    name = serializers.CharField(help_text="where it is stored (releases/<project id>/...)")
    size = serializers.IntegerField(help_text="bytes of the zip")
    files = serializers.ListField(child=serializers.CharField())
    warnings = serializers.ListField(child=serializers.CharField())
