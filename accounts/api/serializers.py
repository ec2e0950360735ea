"""What the admin pages read about user accounts."""

from __future__ import annotations

from rest_framework import serializers


class UserRow(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    username = serializers.CharField()
    is_admin = serializers.BooleanField(source="is_staff")
    is_active = serializers.BooleanField()
    last_login = serializers.DateTimeField(format=None, allow_null=True)
