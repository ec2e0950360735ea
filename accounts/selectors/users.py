"""What the admin pages read about user accounts."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import QuerySet


def users_by_name() -> QuerySet:
    return get_user_model().objects.order_by("username")
