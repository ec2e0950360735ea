"""An admin rolls a project's suggester back (or forward) to a learnt version, serves the base
model (the backend as set), or lets it follow the newest eligible version again
(docs/learning.md)."""

from __future__ import annotations

from django.db import transaction

from annotation.models import Project
from modelserve.errors import SettingsRefused
from modelserve.models import ModelVersion, SuggestionSettings


@transaction.atomic
def model_version_pin(
    *, project: Project, version_id: int | None, base: bool = False
) -> SuggestionSettings:
    """Runs of the project use version `version_id` from now on, or the base model (`base`);
    neither: the automatic choice."""
    if base and version_id is not None:
        raise SettingsRefused("Choose a version or the base model, not both.")
    version = None
    if version_id is not None:
        version = ModelVersion.objects.filter(project=project, pk=version_id).first()
        if version is None:
            raise SettingsRefused(
                f"Project {project.name!r} has no model version {version_id}; "
                "choose one from its list of versions."
            )
    row, _ = SuggestionSettings.objects.select_for_update().get_or_create(project=project)
    row.pinned_version = version
    row.serve_base = base
    row.save(update_fields=["pinned_version", "serve_base"])
    return row
