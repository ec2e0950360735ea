"""A project's suggestion settings: which backend suggests, with which parameters.

Admins choose them (the view is admin-only); annotators' runs use them as they are. A parameter
that names a file or folder is a path the model worker will open, so it must lie inside the
model folders the server allows (MODELS_DIR and MODEL_PATHS_ALLOWED): checked here when the
settings are saved, and again for every run (modelserve.services.runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction

from annotation.models import Project
from modelserve.backends import available_backends
from modelserve.errors import ModelPathRefused, SettingsRefused
from modelserve.models import SuggestionSettings

PATH_PARAMETERS = ("model_path", "model_dir", "encoder_path")


@transaction.atomic
def suggestion_settings_set(
    *,
    project: Project,
    backend: str | None = None,
    params: dict[str, Any] | None = None,
    learn: bool | None = None,
) -> SuggestionSettings:
    """Set what is given, keep the rest (a project without settings starts from the default)."""
    if backend is not None and backend not in available_backends():
        raise SettingsRefused(
            f"Unknown suggestion backend {backend!r}; choose one of "
            f"{', '.join(available_backends())}."
        )
    if params is not None:
        params = model_paths_checked(params)
    row, _ = SuggestionSettings.objects.select_for_update().get_or_create(project=project)
    if backend is not None:
        row.backend = backend
    if params is not None:
        row.params = params
    if learn is not None:
        row.learn = learn  # on: the next submission (or the sweeper) starts learning
    row.save()
    return row


def model_folders_allowed() -> list[Path]:
    """MODELS_DIR, then MODEL_PATHS_ALLOWED, each resolved."""
    folders = [Path(settings.MODELS_DIR), *map(Path, settings.MODEL_PATHS_ALLOWED)]
    return list(dict.fromkeys(folder.expanduser().resolve() for folder in folders))


def names_a_path(key: str) -> bool:
    return key in PATH_PARAMETERS or key.endswith(("_path", "_dir"))


def model_paths_checked(params: dict[str, Any], *, prefix: str = "") -> dict[str, Any]:
    """`params` with every path parameter resolved to an absolute path inside the allowed
    folders (a relative one is taken inside MODELS_DIR); raise ModelPathRefused naming the
    first one that is not. Null means the backend's default (the packaged MiniLM, the models
    folder), which is not a user path. Whether a path exists is never looked at: the answer
    is the same for a file that is there and one that is not."""
    checked: dict[str, Any] = {}
    for key, value in params.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            checked[key] = model_paths_checked(value, prefix=f"{name}.")
        elif names_a_path(str(key)) and value is not None:
            checked[key] = _allowed_path(name, value)
        else:
            checked[key] = value
    return checked


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
