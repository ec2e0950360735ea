"""Reads of a project's learnt model versions (docs/learning.md): which one serves its runs,
and the list with the learning curve's points and the running training for the admin page."""

from __future__ import annotations

from typing import Any

from modelserve.evaluation_seen import default_models_seen, seen_listed
from modelserve.models import ModelTraining, ModelVersion, SuggestionSettings
from modelserve.selectors import project_suggestion_settings
from modelserve.training.learning import METRICS, VersionView, serving_version


def _serving(
    versions: list[ModelVersion], pinned: int | None, *, base: bool = False
) -> ModelVersion | None:
    chosen = serving_version(
        [VersionView(v.pk, v.number, v.eligible) for v in versions], pinned=pinned, base=base
    )
    return next((v for v in versions if v.pk == chosen), None)


def serving_model_version(project_id: int) -> ModelVersion | None:
    """The version the project's runs use (pinned, else the newest eligible); None: the base
    model (an admin chose it, or no version is eligible)."""
    row = SuggestionSettings.objects.filter(project_id=project_id).first()
    pinned = row.pinned_version_id if row is not None else None
    base = bool(row and row.serve_base)
    return _serving(list(ModelVersion.objects.filter(project_id=project_id)), pinned, base=base)


def learned_run_settings(project_id: int) -> tuple[str, dict[str, Any]] | None:
    """(backend, params) of the serving version when the project learns, else None."""
    learns = SuggestionSettings.objects.filter(project_id=project_id, learn=True).exists()
    version = serving_model_version(project_id) if learns else None
    return (version.backend, dict(version.params)) if version is not None else None


def project_model_versions(project_id: int) -> dict[str, Any]:
    """The versions (oldest first), which serves and why, the base model beside them, and the
    newest training."""
    row = SuggestionSettings.objects.filter(project_id=project_id).first()
    pinned = row.pinned_version_id if row is not None else None
    base_chosen = bool(row and row.serve_base)
    versions = list(ModelVersion.objects.filter(project_id=project_id).order_by("number"))
    serving = _serving(versions, pinned, base=base_chosen)
    training = (
        ModelTraining.objects.filter(project_id=project_id).order_by("-created_at", "-pk").first()
    )
    return {
        "learn": bool(row and row.learn),
        "pinned": pinned,
        "base_backend": project_suggestion_settings(project_id).backend,
        "base_chosen": base_chosen,
        "serving": serving.pk if serving else None,
        "metrics": {backend: label for backend, (_, label) in METRICS.items()},
        "versions": versions,
        "training": training,
        # imported topics a default model was trained on (flagged: not a fair test of it)
        "default_trained_texts": seen_listed(default_models_seen(project_id)),
    }
