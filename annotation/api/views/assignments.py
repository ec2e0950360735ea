"""Admin endpoints for assignments: list, assign (all or balanced), reassign, reopen, delete.
Admins only (is_staff)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from annotation.api.serializers.assignments import (
    AssignmentReassigned,
    AssignmentReopened,
    AssignmentsCreated,
)
from annotation.api.serializers.fields import EnumField
from annotation.api.serializers.workspace import AssignmentRow, assignment_role
from annotation.errors import AssignmentTargetsNotFound
from annotation.models import Assignment
from annotation.selectors.assignments import assignment_rows
from annotation.services import assignment_bulk
from annotation.services import assignments as assignment_services
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses


class AssignmentsQuery(serializers.Serializer):
    project = serializers.IntegerField(required=False, allow_null=True)
    user = serializers.IntegerField(required=False, allow_null=True)
    topic = serializers.IntegerField(required=False, allow_null=True)


class AssignRequest(serializers.Serializer):
    project = serializers.IntegerField()
    topics = serializers.ListField(child=serializers.IntegerField(), allow_empty=False)
    users = serializers.ListField(child=serializers.IntegerField(), allow_empty=False)
    mode = EnumField(
        "AssignMode",
        ("all", "balanced"),
        default="all",
        help_text="all: every topic to every user; balanced: k per overlap topic, 1 else",
    )
    k = serializers.IntegerField(min_value=1, default=1)
    overlap = serializers.ListField(child=serializers.IntegerField(), default=list)
    role = assignment_role(default=Assignment.Role.ANNOTATOR)


class AssignmentsView(AdminView):
    @extend_schema(parameters=[AssignmentsQuery], responses=AssignmentRow(many=True))
    def get(self, request):
        query = AssignmentsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = assignment_rows(
            project_id=query.validated_data.get("project"),
            user_id=query.validated_data.get("user"),
            topic_id=query.validated_data.get("topic"),
        )
        return Response(AssignmentRow(rows, many=True).data)

    # Topics outside the project, users that do not exist (in the body, not the path).
    @refuses(AssignmentTargetsNotFound)
    @extend_schema(request=AssignRequest, responses={201: AssignmentsCreated})
    def post(self, request):
        data = AssignRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        created = assignment_bulk.assignments_assign(
            project_id=v["project"],
            topic_ids=v["topics"],
            user_ids=v["users"],
            mode=v["mode"],
            k=v["k"],
            overlap=v["overlap"],
            role=v["role"],
        )
        return Response(
            AssignmentsCreated({"created": created}).data, status=status.HTTP_201_CREATED
        )


class ReassignRequest(serializers.Serializer):
    user = serializers.IntegerField()
    discard_work = serializers.BooleanField(default=False)


class AssignmentReassignView(AdminView):
    @extend_schema(request=ReassignRequest, responses=AssignmentReassigned)
    def post(self, request, pk: int):
        data = ReassignRequest(data=request.data)
        data.is_valid(raise_exception=True)
        get_object_or_404(Assignment, pk=pk)
        user = get_object_or_404(get_user_model(), pk=data.validated_data["user"])
        assignment = assignment_services.assignment_reassign(
            assignment_id=pk, user=user, discard_work=data.validated_data["discard_work"]
        )
        return Response(AssignmentReassigned(assignment).data)


class AssignmentReopenView(AdminView):
    @extend_schema(request=None, responses=AssignmentReopened)
    def post(self, request, pk: int):
        get_object_or_404(Assignment, pk=pk)
        assignment = assignment_services.assignment_reopen(assignment_id=pk)
        return Response(AssignmentReopened(assignment).data)


class AssignmentView(AdminView):
    @extend_schema(
        responses={204: None},
        parameters=[
            OpenApiParameter(
                "discard_work",
                OpenApiTypes.STR,
                enum=["true"],
                description="true: delete an assignment whose annotation has work",
            )
        ],
    )
    def delete(self, request, pk: int):
        get_object_or_404(Assignment, pk=pk)
        assignment_services.assignment_delete(
            assignment_id=pk, discard_work=request.query_params.get("discard_work") == "true"
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
