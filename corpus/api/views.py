"""Admin endpoints of corpora: create and list them, import a file (a job), poll the job."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from annotation.api.parsers import FormParser, MultiPartParser
from annotation.errors import Conflict, ImportRefused, UploadTooLarge
from corpus.api.serializers import (
    CorpusImportPayload,
    CorpusImportRequest,
    CorpusRequest,
    CorpusSummary,
)
from corpus.models import Corpus, CorpusImport
from corpus.selectors import corpora_summaries, corpus_summary
from corpus.services.corpora import corpus_create
from corpus.services.imports import corpus_import_create
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses


class CorporaView(AdminView):
    @extend_schema(responses=CorpusSummary(many=True))
    def get(self, request):
        return Response(CorpusSummary(corpora_summaries(), many=True).data)

    @extend_schema(request=CorpusRequest, responses={201: CorpusSummary})
    @refuses(Conflict)
    def post(self, request):
        data = CorpusRequest(data=request.data)
        data.is_valid(raise_exception=True)
        corpus = corpus_create(**data.validated_data)
        return Response(CorpusSummary(corpus_summary(corpus)).data, status=status.HTTP_201_CREATED)


class CorpusView(AdminView):
    @extend_schema(responses=CorpusSummary)
    def get(self, request, pk: int):
        return Response(CorpusSummary(corpus_summary(get_object_or_404(Corpus, pk=pk))).data)


class CorpusImportView(AdminView):
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema(
        request={"multipart/form-data": CorpusImportRequest},
        responses={202: CorpusImportPayload},
    )
    @refuses(ImportRefused, UploadTooLarge)
    def post(self, request, pk: int):
        data = CorpusImportRequest(data=request.data)
        data.is_valid(raise_exception=True)
        job = corpus_import_create(
            corpus=get_object_or_404(Corpus, pk=pk),
            upload=data.validated_data["file"],
            format=data.validated_data["format"],
            user=request.user,
        )
        return Response(CorpusImportPayload(job).data, status=status.HTTP_202_ACCEPTED)


class CorpusImportJobView(AdminView):
    @extend_schema(responses=CorpusImportPayload)
    def get(self, request, pk: int):
        return Response(CorpusImportPayload(get_object_or_404(CorpusImport, pk=pk)).data)
