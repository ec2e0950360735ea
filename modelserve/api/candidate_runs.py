"""A corpus's candidate-topic runs: listed, and started on the model workers (the review of
a run's candidates is the corpus app's: corpus/api/candidate_views.py)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from annotation.errors import Conflict, ImportRefused
from corpus.api.candidate_serializers import CandidateRunPayload, CandidateRunRequest
from corpus.models import Corpus
from corpus.selectors_candidates import candidate_runs, run_summary
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses
from modelserve.services.candidate_runs import candidate_run_start


class CandidateRunsView(AdminView):
    @extend_schema(responses=CandidateRunPayload(many=True))
    def get(self, request, pk: int):
        return Response(
            CandidateRunPayload(candidate_runs(get_object_or_404(Corpus, pk=pk)), many=True).data
        )

    @extend_schema(request=CandidateRunRequest, responses={202: CandidateRunPayload})
    @refuses(ImportRefused, Conflict)
    def post(self, request, pk: int):
        data = CandidateRunRequest(data=request.data)
        data.is_valid(raise_exception=True)
        run = candidate_run_start(
            corpus=get_object_or_404(Corpus, pk=pk), user=request.user, **data.validated_data
        )
        return Response(CandidateRunPayload(run_summary(run)).data, status=status.HTTP_202_ACCEPTED)
