"""Whether anyone is signed in, asked without failing (GET /api/session/).

The page asks this before anything else. `/api/me/` answers a signed-out browser with 403,
which the browser logs as a failed request on every signed-out page load; this answers 200
with `{"authenticated": false, "user": null}` instead, and the signed-in user otherwise.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.auth import MeSerializer, me_payload
from accounts.selectors.single_sign_on import single_sign_on


class SingleSignOn(serializers.Serializer):
    name = serializers.CharField(help_text='the provider, for "Sign in with <name>"')
    url = serializers.CharField(help_text="where the button goes (add ?next=/path)")


class SessionPayload(serializers.Serializer):
    authenticated = serializers.BooleanField()
    user = MeSerializer(allow_null=True, help_text="null when nobody is signed in")
    single_sign_on = SingleSignOn(
        allow_null=True, help_text="the OpenID Connect provider, null when none is configured"
    )


class SessionView(APIView):
    permission_classes = (AllowAny,)

    @extend_schema(responses=SessionPayload)
    def get(self, request):
        user = request.user
        signed_in = bool(user and user.is_authenticated)
        payload = {
            "authenticated": signed_in,
            "user": me_payload(user) if signed_in else None,
            "single_sign_on": single_sign_on(),
        }
        return Response(SessionPayload(payload).data)
