"""User accounts, managed by admins: create, and change password, admin rights, activity."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.errors import UserRefused
from foundation import broadcast
from foundation.side_effects import after_commit


def _check_username(username: str) -> None:
    """Django's own rule (letters, digits and @ . + - _): a username also names files in
    per-annotator exports."""
    try:
        get_user_model().username_validator(username)
    except ValidationError as error:
        raise UserRefused(" ".join(error.messages)) from None


def _check_password(password: str, user) -> None:
    """AUTH_PASSWORD_VALIDATORS: long enough, not common, not like the username."""
    try:
        validate_password(password, user)
    except ValidationError as error:
        raise UserRefused(" ".join(error.messages)) from None


def user_create(*, username: str, password: str, is_admin: bool = False):
    User = get_user_model()
    _check_username(username)
    if User.objects.filter(username=username).exists():
        raise UserRefused(f"The username {username!r} is taken.")
    _check_password(password, User(username=username))
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, password=password, is_staff=is_admin)
    except IntegrityError:
        # A second submit of the same form passed the check above before this one inserted.
        raise UserRefused(f"The username {username!r} is taken.") from None


@transaction.atomic
def user_update(
    *,
    user,
    acting_user,
    password: str | None = None,
    is_admin: bool | None = None,
    is_active: bool | None = None,
):
    """A new password signs the user out everywhere and revokes their API tokens
    (sessions.PasswordChangeRevokesTokens)."""
    if user.pk == acting_user.pk and (is_admin is False or is_active is False):
        raise UserRefused("You cannot remove your own admin rights or deactivate yourself.")
    if password is not None:
        _check_password(password, user)
        user.set_password(password)
    if is_admin is not None:
        user.is_staff = is_admin
    if is_active is not None:
        user.is_active = is_active
    user.save()
    if is_admin is not None or is_active is not None:
        after_commit(broadcast.access_changed, user.pk)  # a password change says so itself
    return user
