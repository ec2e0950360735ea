"""Admin endpoint for bulk actions on assignments (delete or reopen many at once).
Admins only (is_staff)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from annotation.api.serializers.assignments import BulkDone
from annotation.api.serializers.fields import EnumField
from annotation.errors import AssignmentTargetsNotFound
from annotation.services import assignment_bulk
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses


class BulkRequest(serializers.Serializer):
    action = EnumField("BulkAction", ("delete", "reopen"))
    assignments = serializers.ListField(
        child=serializers.IntegerField(), allow_empty=False, max_length=100_000
    )
    discard_work = serializers.BooleanField(
        default=False, help_text="delete: also assignments with work in them"
    )


class AssignmentsBulkView(AdminView):
    """Delete or reopen many assignments in one set-based request (all or nothing)."""

    # Topics outside the project, users that do not exist (in the body, not the path).
    @refuses(AssignmentTargetsNotFound)
    @extend_schema(request=BulkRequest, responses=BulkDone)
    def post(self, request):
        data = BulkRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        count = assignment_bulk.assignments_bulk_action(
            action=v["action"], assignment_ids=v["assignments"], discard_work=v["discard_work"]
        )
        return Response(BulkDone({"action": v["action"], "count": count}).data)
