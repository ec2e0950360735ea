"""Who is who, for every app: the one role rule the permissions and the selectors share."""

from __future__ import annotations


def is_admin(user) -> bool:
    """Admins are signed-in staff users (Django's is_staff); everyone else is an annotator."""
    return bool(user and user.is_authenticated and user.is_staff)
