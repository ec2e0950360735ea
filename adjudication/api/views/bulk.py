"""Admin endpoint: seeded adjudication assignments for many topics. Admins only (is_staff)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from adjudication.api.serializers.bulk import AdjudicateRequest, AdjudicationsCreated
from adjudication.services import bulk as adjudication_bulk
from annotation.errors import AssignmentTargetsNotFound
from annotation.models import Project as ProjectModel
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses


class AdjudicationsView(AdminView):
    """Seeded adjudication assignments for many topics (all or nothing)."""

    # Topics outside the project, users that do not exist (in the body, not the path).
    @refuses(AssignmentTargetsNotFound)
    @extend_schema(request=AdjudicateRequest, responses={201: AdjudicationsCreated})
    def post(self, request):
        data = AdjudicateRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        get_object_or_404(ProjectModel, pk=v["project"])
        created = adjudication_bulk.adjudications_assign(
            project_id=v["project"],
            user_id=v["user"],
            seed=v["seed"],
            threshold=v["threshold"],
            topic_pks=v["topics"],
            submit=v["submit"],
        )
        return Response(AdjudicationsCreated(created).data, status=status.HTTP_201_CREATED)
