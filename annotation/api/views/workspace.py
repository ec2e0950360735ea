"""The annotator's endpoints: my topics, a topic, my annotation, operations, undo/redo, submit.

Each view validates its input, makes one service or selector call and serialises its result;
refusals are domain errors mapped to HTTP in foundation.api.errors.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.api.refusals import EDIT
from annotation.api.serializers.fields import ShapedDict
from annotation.api.serializers.operations import OPERATION
from annotation.api.serializers.workspace import (
    AnnotationPayload,
    Applied,
    AssignmentRow,
    AssignmentSubmitted,
    LogEntry,
    TopicPayload,
)
from annotation.domain.errors import DomainError
from annotation.errors import AnnotationLocked
from annotation.selectors.access import (
    readable_annotation,
    readable_topic,
    visible_annotations,
    visible_assignments,
)
from annotation.selectors.workspace import (
    annotation_log_payload,
    annotation_payload,
    my_assignments_payload,
    topic_payload,
)
from annotation.services import assignments as assignment_services
from annotation.services import cursor, operations
from foundation.api.schema import refuses


class OperationRequest(serializers.Serializer):
    expected_version = serializers.IntegerField(min_value=0)
    operation = ShapedDict(OPERATION)  # e.g. {"op": "assign", "mention": 12, "cluster": null}
    client_id = serializers.CharField(required=False, allow_blank=True, max_length=64, default="")


class VersionRequest(serializers.Serializer):
    expected_version = serializers.IntegerField(min_value=0)
    client_id = serializers.CharField(required=False, allow_blank=True, max_length=64, default="")


class CursorRequest(serializers.Serializer):
    mention = serializers.IntegerField(allow_null=True)


# _AS_BUILT: the workspace's two big answers (a topic and its annotation) and the answer to
# every keystroke go out as their selectors and services build them. Their serializers
# describe them for the schema, and tests/annotation/api/test_api_payloads.py proves that each
# serializer gives the same bytes back; copying them field by field on every request would
# add ~80 ms (topic) and ~250 ms (annotation) to opening a 10,000-mention workspace.


class MyAssignmentsView(APIView):
    @extend_schema(responses=AssignmentRow(many=True))
    def get(self, request):
        return Response(AssignmentRow(my_assignments_payload(request.user), many=True).data)


class TopicView(APIView):
    # A locked (unqualified) annotator reads a real topic no more than they open it.
    @refuses(AnnotationLocked)
    @extend_schema(responses=TopicPayload)
    def get(self, request, pk: int):
        topic = readable_topic(request.user, pk)
        return Response(topic_payload(topic))  # as built: see _AS_BUILT


class AnnotationView(APIView):
    @refuses(AnnotationLocked)
    @extend_schema(responses=AnnotationPayload)
    def get(self, request, pk: int):
        annotation = readable_annotation(request.user, pk)
        return Response(annotation_payload(annotation))  # as built: see _AS_BUILT


class OperationsView(APIView):
    @refuses(*EDIT)
    @extend_schema(request=OperationRequest, responses=Applied)
    def post(self, request, pk: int):
        # Ownership, visibility and the version are checked by the service under the row lock
        # (one query instead of a separate look-up here: this is the hot path of annotation).
        data = OperationRequest(data=request.data)
        data.is_valid(raise_exception=True)
        applied = operations.annotation_operation_apply(
            annotation_id=pk,
            user=request.user,
            payload=data.validated_data["operation"],
            expected_version=data.validated_data["expected_version"],
            client_id=data.validated_data["client_id"],
        )
        return Response(applied.as_message())  # as built: see _AS_BUILT

    @extend_schema(responses=LogEntry(many=True))
    def get(self, request, pk: int):
        """The log (newest last): what changed, by whom, when; the last 500 entries."""
        annotation = get_object_or_404(visible_annotations(request.user), pk=pk)
        return Response(LogEntry(annotation_log_payload(annotation), many=True).data)


class UndoView(APIView):
    kind = "undo"

    @refuses(*EDIT)
    @extend_schema(request=VersionRequest, responses=Applied)
    def post(self, request, pk: int):
        data = VersionRequest(data=request.data)
        data.is_valid(raise_exception=True)
        service = operations.annotation_undo if self.kind == "undo" else operations.annotation_redo
        applied = service(
            annotation_id=pk,
            user=request.user,
            client_id=data.validated_data["client_id"],
            expected_version=data.validated_data["expected_version"],
        )
        return Response(applied.as_message())  # as built: see _AS_BUILT


class RedoView(UndoView):
    kind = "redo"


class CursorView(APIView):
    """Remember the current mention so a reload resumes there (not an operation: no version)."""

    @refuses(AnnotationLocked)
    @extend_schema(request=CursorRequest, responses={204: None})
    def put(self, request, pk: int):
        data = CursorRequest(data=request.data)
        data.is_valid(raise_exception=True)
        cursor.annotation_cursor_set(
            annotation_id=pk, user=request.user, mention=data.validated_data["mention"]
        )
        return Response(status=204)


class SubmitView(APIView):
    @refuses(AnnotationLocked, DomainError)
    @extend_schema(request=None, responses=AssignmentSubmitted)
    def post(self, request, pk: int):
        assignment = get_object_or_404(visible_assignments(request.user), pk=pk)
        assignment = assignment_services.assignment_submit(
            assignment_id=assignment.pk, user=request.user
        )
        return Response(AssignmentSubmitted(assignment).data)
