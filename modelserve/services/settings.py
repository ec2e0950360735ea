"""A project's suggestion settings: which backend suggests, with which parameters.

Admins choose them (the view is admin-only); annotators' runs use them as they are. A parameter
that names a file or folder is a path the model worker will open, so it must lie inside the
model folders the server allows (MODELS_DIR and MODEL_PATHS_ALLOWED): checked here when the
settings are saved, and again for every run (modelserve.services.runs) and evaluation. Which
parameters a backend takes, and which of them are paths, its schema says
(modelserve/backends/parameters.py); a parameter it does not declare is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction

from annotation.models import Project
from modelserve.backends import available_backends
from modelserve.backends.parameters import ParameterError, checked, shown
from modelserve.errors import ModelPathRefused, ParameterRefused, SettingsRefused
from modelserve.models import SuggestionSettings
from modelserve.training.profiles import PROFILES


@transaction.atomic
def suggestion_settings_set(
    *,
    project: Project,
    backend: str | None = None,
    params: dict[str, Any] | None = None,
    learn: bool | None = None,
    learn_encoder: str | None = None,
    learn_profile: str | None = None,
) -> SuggestionSettings:
    """Set what is given, keep the rest (a project without settings starts from the default).
    `learn_encoder`, what learning fine-tunes from, is a path like any model parameter ("":
    the packaged MiniLM)."""
    if backend is not None and backend not in available_backends():
        raise SettingsRefused(
            f"Unknown suggestion backend {backend!r}; choose one of "
            f"{', '.join(available_backends())}."
        )
    row, _ = SuggestionSettings.objects.select_for_update().get_or_create(project=project)
    if params is not None or backend is not None:
        # the parameters kept must suit a new backend too
        params = backend_params_checked(
            backend or row.backend, params=row.params if params is None else params
        )
    if backend is not None:
        row.backend = backend
    if params is not None:
        row.params = params
    if learn is not None:
        row.learn = learn  # on: the next submission (or the sweeper) starts learning
    if learn_encoder is not None:
        row.learn_encoder = _allowed_path("learn_encoder", learn_encoder) if learn_encoder else ""
    if learn_profile is not None:
        if learn_profile not in PROFILES:
            raise SettingsRefused(
                f"There is no training profile {shown(learn_profile)}; choose one of "
                f"{', '.join(PROFILES)}."
            )
        row.learn_profile = learn_profile
    row.save()
    return row


def model_folders_allowed() -> list[Path]:
    """MODELS_DIR, then MODEL_PATHS_ALLOWED, each resolved."""
    folders = [Path(settings.MODELS_DIR), *map(Path, settings.MODEL_PATHS_ALLOWED)]
    return list(dict.fromkeys(folder.expanduser().resolve() for folder in folders))


def backend_params_checked(backend: str, *, params: dict[str, Any]) -> dict[str, Any]:
    """`params` checked against the backend's schema, every path parameter resolved to an
    absolute path inside the allowed folders (a relative one is taken inside MODELS_DIR).
    Raises ParameterRefused for a parameter the backend does not declare or a value of the
    wrong kind, ModelPathRefused for a path outside the folders. Null means the backend's
    default (the packaged MiniLM, the models folder), which is not a user path. Whether a
    path exists is never looked at: the answer is the same for a file that is there and one
    that is not."""
    try:
        return checked(backend, params, path=_allowed_path)
    except ParameterError as error:
        raise ParameterRefused(error.parameter, str(error)) from None


def model_path_checked(name: str, *, value: Any) -> str:
    """One path, whatever parameter it is for, checked as any model path."""
    return _allowed_path(name, value)


def _allowed_path(name: str, value: Any) -> str:
    folders = model_folders_allowed()
    shown = [str(folder) for folder in folders]
    if not isinstance(value, str) or not value.strip() or "\x00" in value:
        raise ModelPathRefused(name, "must be the path of a model file or folder", shown)
    try:
        given = Path(value).expanduser()
        resolved = (given if given.is_absolute() else folders[0] / given).resolve()
    except (OSError, RuntimeError, ValueError):  # ~nobody, a symlink loop
        resolved = None
    if resolved is None or not any(resolved.is_relative_to(folder) for folder in folders):
        raise ModelPathRefused(
            name,
            f"{value!r} is not inside the model folders this server allows "
            f"({', '.join(shown)}). Put the model there, or add its folder to "
            "MODEL_PATHS_ALLOWED.",
            shown,
        )
    return str(resolved)
