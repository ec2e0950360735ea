"""Signing in: a session for the browser, a token for scripts."""

from __future__ import annotations

from django.contrib.auth import authenticate, login
from rest_framework.authtoken.models import Token

from annotation.errors import InvalidCredentials


def _user(request, username: str, password: str):
    user = authenticate(request, username=username, password=password)
    if user is None:
        raise InvalidCredentials()
    return user


def session_login(*, request, username: str, password: str):
    """Sign `request`'s session in as the user these credentials name."""
    user = _user(request, username, password)
    login(request, user)
    return user


def api_token_obtain(*, request, username: str, password: str) -> str:
    """The API token of the user these credentials name (made on first use)."""
    token, _ = Token.objects.get_or_create(user=_user(request, username, password))
    return token.key
