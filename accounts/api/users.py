"""Admin endpoints for user accounts: list, create, change (password, admin, active).
Admins only (is_staff)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from accounts.api.serializers import UserRow
from accounts.selectors.users import users_by_name
from accounts.services import users as user_services
from accounts.services.sessions import session_keep
from foundation.api.permissions import AdminView

PASSWORD_RULES = (
    "at least 10 characters, not a common password, not all digits, not like the username; "
    "a new password signs the user out everywhere and revokes their API tokens"
)


class UserSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="letters, digits and @ . + - _ only")
    password = serializers.CharField(max_length=1024, write_only=True, help_text=PASSWORD_RULES)
    is_admin = serializers.BooleanField(default=False)


class UserUpdateSerializer(serializers.Serializer):
    password = serializers.CharField(max_length=1024, required=False, help_text=PASSWORD_RULES)
    is_admin = serializers.BooleanField(required=False)
    is_active = serializers.BooleanField(required=False)


class UsersView(AdminView):
    @extend_schema(responses=UserRow(many=True))
    def get(self, request):
        return Response(UserRow(users_by_name(), many=True).data)

    @extend_schema(request=UserSerializer, responses={201: UserRow})
    def post(self, request):
        data = UserSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = user_services.user_create(**data.validated_data)
        return Response(UserRow(user).data, status=status.HTTP_201_CREATED)


class UserView(AdminView):
    @extend_schema(request=UserUpdateSerializer, responses=UserRow)
    def patch(self, request, pk: int):
        user = get_object_or_404(get_user_model(), pk=pk)
        data = UserUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = user_services.user_update(user=user, acting_user=request.user, **data.validated_data)
        if "password" in data.validated_data and user.pk == request.user.pk:
            session_keep(request=request, user=user)
        return Response(UserRow(user).data)
