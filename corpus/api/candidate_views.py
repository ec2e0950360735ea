"""Admin endpoints of seed taxonomies and the candidate review (a run is started on the
model workers: modelserve/api/candidate_runs.py)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from annotation.api.parsers import FormParser, MultiPartParser
from annotation.errors import Conflict, ImportRefused
from corpus.api.candidate_serializers import (
    CandidateDropRequest,
    CandidateMergeRequest,
    CandidateReviewPayload,
    CandidateSplitRequest,
    CandidateTopicsRequest,
    CandidateUpdateRequest,
    ConceptGroupPayload,
    CreatedTopicPayload,
    TaxonomyImportRequest,
)
from corpus.models import Candidate, CandidateRun, Corpus
from corpus.selectors_candidates import concept_groups, run_review
from corpus.services.candidate_edits import (
    candidate_mentions_drop,
    candidate_split,
    candidate_update,
    candidates_merge,
)
from corpus.services.candidate_topics import candidates_to_topics
from corpus.services.taxonomies import taxonomy_import
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses


class ConceptGroupsView(AdminView):
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema(responses=ConceptGroupPayload(many=True))
    def get(self, request, pk: int):
        return Response(concept_groups(get_object_or_404(Corpus, pk=pk)))

    @extend_schema(
        request={"multipart/form-data": TaxonomyImportRequest},
        responses={201: ConceptGroupPayload(many=True)},
    )
    @refuses(ImportRefused, Conflict)
    def post(self, request, pk: int):
        data = TaxonomyImportRequest(data=request.data)
        data.is_valid(raise_exception=True)
        groups = taxonomy_import(
            corpus=get_object_or_404(Corpus, pk=pk),
            upload=data.validated_data["file"],
            format=data.validated_data["format"],
            name=data.validated_data["name"],
        )
        return Response(ConceptGroupPayload(groups, many=True).data, status=status.HTTP_201_CREATED)


class CandidateRunView(AdminView):
    @extend_schema(responses=CandidateReviewPayload)
    def get(self, request, pk: int):
        return Response(
            CandidateReviewPayload(run_review(get_object_or_404(CandidateRun, pk=pk))).data
        )


def _review(candidate: Candidate) -> Response:
    return Response(CandidateReviewPayload(run_review(candidate.run)).data)


class CandidateView(AdminView):
    @extend_schema(request=CandidateUpdateRequest, responses=CandidateReviewPayload)
    @refuses(Conflict)
    def patch(self, request, pk: int):
        data = CandidateUpdateRequest(data=request.data)
        data.is_valid(raise_exception=True)
        candidate = get_object_or_404(Candidate, pk=pk)
        return _review(candidate_update(candidate=candidate, **data.validated_data))


class CandidateDropView(AdminView):
    @extend_schema(request=CandidateDropRequest, responses=CandidateReviewPayload)
    @refuses(ImportRefused, Conflict)
    def post(self, request, pk: int):
        data = CandidateDropRequest(data=request.data)
        data.is_valid(raise_exception=True)
        candidate = get_object_or_404(Candidate, pk=pk)
        return _review(candidate_mentions_drop(candidate=candidate, **data.validated_data))


class CandidateMergeView(AdminView):
    @extend_schema(request=CandidateMergeRequest, responses=CandidateReviewPayload)
    @refuses(ImportRefused, Conflict)
    def post(self, request, pk: int):
        data = CandidateMergeRequest(data=request.data)
        data.is_valid(raise_exception=True)
        candidate = get_object_or_404(Candidate, pk=pk)
        other = get_object_or_404(Candidate, pk=data.validated_data["other"])
        return _review(candidates_merge(candidate=candidate, other=other))


class CandidateSplitView(AdminView):
    @extend_schema(request=CandidateSplitRequest, responses=CandidateReviewPayload)
    @refuses(ImportRefused, Conflict)
    def post(self, request, pk: int):
        data = CandidateSplitRequest(data=request.data)
        data.is_valid(raise_exception=True)
        candidate = get_object_or_404(Candidate, pk=pk)
        return _review(candidate_split(candidate=candidate, **data.validated_data))


class CandidateTopicsView(AdminView):
    @extend_schema(request=CandidateTopicsRequest, responses={201: CreatedTopicPayload(many=True)})
    @refuses(ImportRefused, Conflict)
    def post(self, request, pk: int):
        data = CandidateTopicsRequest(data=request.data)
        data.is_valid(raise_exception=True)
        topics = candidates_to_topics(
            run=get_object_or_404(CandidateRun, pk=pk), user=request.user, **data.validated_data
        )
        return Response(CreatedTopicPayload(topics, many=True).data, status=status.HTTP_201_CREATED)
