"""Query by example from the workspace: read-only, for anyone who may read the annotation."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.errors import AnnotationLocked, ServiceUnavailable
from foundation.api.schema import refuses
from modelserve.corpus_query_selectors import corpus_query


class CorpusQueryParams(serializers.Serializer):
    mention = serializers.IntegerField(
        required=False, help_text="a mention of the annotation's topic: its neighbours"
    )
    text = serializers.CharField(
        required=False, max_length=300, trim_whitespace=True, help_text="a free-text query"
    )
    corpus = serializers.IntegerField(
        required=False, help_text="the corpus to query (default: the project's first indexed)"
    )
    k = serializers.IntegerField(required=False, min_value=1, max_value=50, default=10)

    def validate(self, attrs):
        if ("mention" in attrs) == bool(attrs.get("text")):
            raise serializers.ValidationError("Give either a mention or a text to look for.")
        return attrs


class CorpusTreatment(serializers.Serializer):
    project = serializers.CharField()
    topic = serializers.CharField()
    annotation = serializers.ChoiceField(choices=["gold", "adjudicated", "yours"])
    cluster = serializers.CharField()
    size = serializers.IntegerField()
    parents = serializers.ListField(child=serializers.CharField())


class CorpusNeighbour(serializers.Serializer):
    mention = serializers.IntegerField()
    text = serializers.CharField()
    category = serializers.CharField(
        allow_blank=True, help_text="the extractor's label (Method, Task, ...)"
    )
    similarity = serializers.FloatField()
    document = serializers.CharField()
    words = serializers.ListField(child=serializers.CharField())
    marked = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    cut_before = serializers.BooleanField()
    cut_after = serializers.BooleanField()
    treatments = CorpusTreatment(many=True)


class CorpusRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class CorpusQueryText(serializers.Serializer):
    text = serializers.CharField(allow_blank=True)
    vector_from = serializers.ChoiceField(choices=["corpus", "worker", "none"])


class CorpusQueryPayload(serializers.Serializer):
    corpus = CorpusRef()
    query = CorpusQueryText()
    neighbours = CorpusNeighbour(many=True)
    message = serializers.CharField(allow_blank=True)
    server_ms = serializers.FloatField()


class CorpusQueryView(APIView):
    @extend_schema(parameters=[CorpusQueryParams], responses=CorpusQueryPayload)
    @refuses(AnnotationLocked, ServiceUnavailable)
    def get(self, request, pk: int):
        params = CorpusQueryParams(data=request.query_params)
        params.is_valid(raise_exception=True)
        v = params.validated_data
        answer = corpus_query(
            request.user,
            pk,
            mention_id=v.get("mention"),
            text=v.get("text"),
            corpus_id=v.get("corpus"),
            k=v["k"],
        )
        return Response(CorpusQueryPayload(answer).data)
