"""Sign-in for the browser (session + CSRF) and for scripts (tokens); failed attempts are
throttled per account and per client address (accounts.api.throttles)."""

from __future__ import annotations

from django.middleware.csrf import get_token
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import ensure_csrf_cookie
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.throttles import sign_in_attempt
from accounts.errors import InvalidCredentials
from accounts.services.sessions import api_token_obtain, session_login, session_logout
from annotation.errors import ServiceUnavailable
from foundation.api.schema import Throttled, refuses
from foundation.roles import is_admin


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=1024, style={"input_type": "password"})


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_admin = serializers.BooleanField()


def me_payload(user) -> dict:
    return {"id": user.pk, "username": user.username, "is_admin": is_admin(user)}


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class CsrfSerializer(serializers.Serializer):
    csrf_token = serializers.CharField()


def _credentials(request) -> dict:
    credentials = CredentialsSerializer(data=request.data)
    credentials.is_valid(raise_exception=True)
    return credentials.validated_data


class TokenView(APIView):
    """Obtain the API token of a user, for scripts (`Authorization: Token <key>`)."""

    permission_classes = (AllowAny,)
    authentication_classes = ()

    # 503: too many sign-ins wait for the sign-in threads (corefapp/sign_in_pool.py).
    @refuses(Throttled, ServiceUnavailable, rules=False)
    @extend_schema(request=CredentialsSerializer, responses=TokenSerializer)
    def post(self, request):
        credentials = _credentials(request)
        token = sign_in_attempt(
            request,
            credentials["username"],
            lambda: api_token_obtain(request=request, **credentials),
            InvalidCredentials,
        )
        return Response(TokenSerializer({"token": token}).data)


class LoginView(APIView):
    """Sign in with a session (the browser); CSRF protection applies to later writes."""

    permission_classes = (AllowAny,)

    # 503: too many sign-ins wait for the sign-in threads (corefapp/sign_in_pool.py).
    @refuses(Throttled, ServiceUnavailable, rules=False)
    @extend_schema(request=CredentialsSerializer, responses=MeSerializer)
    def post(self, request):
        credentials = _credentials(request)
        user = sign_in_attempt(
            request,
            credentials["username"],
            lambda: session_login(request=request, **credentials),
            InvalidCredentials,
        )
        return Response(MeSerializer(me_payload(user)).data)


class LogoutView(APIView):
    permission_classes = (IsAuthenticated,)

    @refuses(rules=False)
    @extend_schema(request=None, responses={204: None})
    def post(self, request):
        session_logout(request=request)
        return Response(status=status.HTTP_204_NO_CONTENT)


@method_decorator(ensure_csrf_cookie, name="get")
class CsrfView(APIView):
    permission_classes = (AllowAny,)

    @extend_schema(responses=CsrfSerializer)
    def get(self, request):
        return Response(CsrfSerializer({"csrf_token": get_token(request)}).data)


class MeView(APIView):
    @extend_schema(responses=MeSerializer)
    def get(self, request):
        return Response(MeSerializer(me_payload(request.user)).data)
