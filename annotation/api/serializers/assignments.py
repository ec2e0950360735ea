"""What the admin pages read back from assignment changes (assign, reassign, reopen, bulk)."""

from __future__ import annotations

from rest_framework import serializers

from annotation.api.serializers.fields import EnumField
from annotation.api.serializers.workspace import assignment_status


class AssignmentsCreated(serializers.Serializer):
    created = serializers.IntegerField(help_text="new assignments (existing ones are kept)")


class AssignmentReassigned(serializers.Serializer):
    id = serializers.IntegerField()
    user = serializers.IntegerField(source="user_id")
    status = assignment_status()


class AssignmentReopened(serializers.Serializer):
    id = serializers.IntegerField()
    status = assignment_status()


class BulkDone(serializers.Serializer):
    action = EnumField("BulkAction", ("delete", "reopen"))
    count = serializers.IntegerField()
