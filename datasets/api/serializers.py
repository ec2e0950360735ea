"""What the dataset endpoints answer and accept."""

from __future__ import annotations

from rest_framework import serializers

from datasets.models import ReleaseJob
from datasets.services.splits import BALANCES, NAME_LENGTH


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
    sentences = serializers.IntegerField(help_text="the documents' own sentence boundaries")
    tokens_per_sentence = serializers.FloatField(help_text="ChEMU Table 1's Tokens/Sentences")
    ambiguity = serializers.FloatField(
        help_text="WEC Table 1: mean number of clusters a head lemma appears in"
    )
    diversity = serializers.FloatField(
        help_text="WEC Table 1: mean distinct head lemmas per non-singleton cluster"
    )
    link_entries = LinkCounts(
        help_text="ChEMU Table 1's relation rows: link entries as the file lists them "
        "(repeats and empty sides included)"
    )


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
    source = serializers.ChoiceField(
        choices=["", "gold", "adjudicated"],
        required=False,
        default="",
        help_text="'' (default): each topic's adjudication, else its imported gold",
    )


class StoredReleasePayload(serializers.Serializer):
    name = serializers.CharField(help_text="where it is stored (releases/<project id>/...)")
    size = serializers.IntegerField(help_text="bytes of the zip")
    files = serializers.ListField(child=serializers.CharField())
    warnings = serializers.ListField(child=serializers.CharField())


class ReleaseJobPayload(serializers.Serializer):
    """A release bundle being built by the worker, as the Datasets page polls it."""

    job = serializers.IntegerField(source="pk")
    project = serializers.IntegerField(source="project_id")
    status = serializers.ChoiceField(choices=ReleaseJob.Status.choices)
    progress = serializers.FloatField(help_text="0 to 1")
    message = serializers.CharField(help_text="what it does now, or how it ended (why it failed)")
    result = StoredReleasePayload(allow_null=True, help_text="the stored bundle, once succeeded")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class SplitRequest(serializers.Serializer):
    ratios = serializers.ListField(
        child=serializers.FloatField(), help_text="one share per split, adding up to 1"
    )
    names = serializers.ListField(
        child=serializers.CharField(allow_blank=True),
        required=False,
        help_text="default: train,test (2) or train,dev,test (3)",
    )
    seed = serializers.IntegerField(default=0, min_value=0)
    balance = serializers.ChoiceField(
        choices=list(BALANCES),
        required=False,
        help_text="default: links (anaphora), else clusters",
    )
    replace = serializers.BooleanField(
        default=False, help_text="replace the project's split if it has one (else it is kept)"
    )


class SplitSize(serializers.Serializer):
    name = serializers.CharField()
    topics = serializers.IntegerField()


class SplitDeviation(serializers.Serializer):
    split = serializers.CharField()
    dimension = serializers.CharField(help_text="what was balanced: a link type, clusters, ...")
    deviation = serializers.FloatField(
        allow_null=True, help_text="the split's share of it minus its share of topics"
    )


class SplitOutcomePayload(serializers.Serializer):
    kept = serializers.BooleanField(help_text="true: the project had a split and kept it")
    sizes = SplitSize(many=True)
    seed = serializers.IntegerField(allow_null=True)
    balance = serializers.CharField(allow_null=True)
    deviation = serializers.FloatField(
        allow_null=True, help_text="the largest deviation of a split's share from its topic share"
    )
    deviations = SplitDeviation(many=True)
