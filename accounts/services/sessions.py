"""Signing in: a session for the browser, a token for scripts; and signing out everywhere
when a password changes."""

from __future__ import annotations

from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from rest_framework.authtoken.models import Token

from accounts.errors import InvalidCredentials
from foundation import broadcast
from foundation.side_effects import after_commit


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


def session_logout(*, request) -> None:
    """Sign `request`'s session out. The sockets opened with it check again and close (the
    user's other sessions keep theirs)."""
    user_id = request.user.pk
    logout(request)
    if user_id is not None:
        after_commit(broadcast.access_changed, user_id)


def session_keep(*, request, user) -> None:
    """Keep `request`'s session signed in after `user` (the one signed in) changed their own
    password; every other session of theirs is signed out."""
    update_session_auth_hash(request, user)


class PasswordChangeRevokesTokens:
    """Listed in AUTH_PASSWORD_VALIDATORS for Django's `password_changed` hook, which runs
    whenever a saved user's password changes: through the API, the Django admin or
    `manage.py changepassword`. It validates nothing.

    A new password revokes the user's API tokens and closes the sockets of sessions signed in
    with the old one. Sessions need nothing more: Django signs each with a hash of the password
    and signs out those signed with an old one."""

    def validate(self, password: str, user=None) -> None:
        return None

    def password_changed(self, password: str, user=None) -> None:
        if user is not None and user.pk is not None:
            Token.objects.filter(user=user).delete()
            # Open sockets were signed in with the old password: they check again and close.
            after_commit(broadcast.access_changed, user.pk)

    def get_help_text(self) -> str:
        return "A new password signs the user out everywhere and revokes their API tokens."
