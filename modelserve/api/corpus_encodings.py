"""The admin's request to encode a corpus (its progress is the corpus's summary)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from annotation.errors import Conflict, ImportRefused
from corpus.api.serializers import CorpusSummary
from corpus.models import Corpus
from corpus.selectors import corpus_summary
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses
from modelserve.errors import ModelPathRefused
from modelserve.services.corpus_encoding import corpus_encoding_start


class EncodingRequest(serializers.Serializer):
    encoder_path = serializers.CharField(
        allow_null=True,
        default=None,
        help_text="an encoder folder inside the model folders the server allows; "
        "null: the packaged MiniLM",
    )
    chunk_size = serializers.IntegerField(min_value=16, max_value=20_000, default=512)


class CorpusEncodingView(AdminView):
    @extend_schema(request=EncodingRequest, responses={202: CorpusSummary})
    @refuses(Conflict, ImportRefused, ModelPathRefused)
    def post(self, request, pk: int):
        data = EncodingRequest(data=request.data)
        data.is_valid(raise_exception=True)
        corpus = get_object_or_404(Corpus, pk=pk)
        corpus_encoding_start(corpus=corpus, **data.validated_data)
        return Response(CorpusSummary(corpus_summary(corpus)).data, status=status.HTTP_202_ACCEPTED)
