"""A project's suggestion settings: which backend suggests, with which parameters."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from annotation.models import Project
from modelserve.backends import available_backends
from modelserve.errors import SettingsRefused
from modelserve.models import SuggestionSettings


@transaction.atomic
def suggestion_settings_set(
    *, project: Project, backend: str | None = None, params: dict[str, Any] | None = None
) -> SuggestionSettings:
    """Set what is given, keep the rest (a project without settings starts from the default)."""
    if backend is not None and backend not in available_backends():
        raise SettingsRefused(
            f"Unknown suggestion backend {backend!r}; choose one of "
            f"{', '.join(available_backends())}."
        )
    row, _ = SuggestionSettings.objects.select_for_update().get_or_create(project=project)
    if backend is not None:
        row.backend = backend
    if params is not None:
        row.params = params
    row.save()
    return row
