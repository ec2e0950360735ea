"""Trained models in the default storage, so that model workers share no disk.

Without STORAGE_URL a model is its folder under MODELS_DIR (var/models) and nothing here does
anything. With STORAGE_URL the bucket holds every trained model under models/<name>/, and
MODELS_DIR is only this worker's local copy (MODEL_CACHE_DIR):

- `model_upload(name)`, after a training wrote MODELS_DIR/<name>, copies its files to
  models/<name>/ and then writes models/<name>/.stored, whose content (a fresh random version)
  says that the upload is whole: a reader never takes a half-written model.
- `model_local(name)`, before a worker loads a model, compares the stored version with the
  local copy's and downloads the model when they differ (into a new folder, swapped in once
  complete). A model that was never stored is left to the backend, which says it is missing.
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings
from django.core.files import File
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from modelserve.backends import BACKENDS, backend_class
from modelserve.backends.parameters import path_values

PREFIX = "models"
MARKER = ".stored"


def in_storage() -> bool:
    return bool(getattr(settings, "STORAGE_URL", ""))


def _models_dir() -> Path:
    return Path(settings.MODELS_DIR)


def _stored_files(folder: str) -> Iterator[str]:
    """Every file name under `folder` of the default storage, recursively."""
    directories, files = default_storage.listdir(folder)
    for name in files:
        yield f"{folder}/{name}"
    for directory in directories:
        yield from _stored_files(f"{folder}/{directory}")


def stored_version(name: str) -> str | None:
    marker = f"{PREFIX}/{name}/{MARKER}"
    if not default_storage.exists(marker):
        return None
    with default_storage.open(marker, "rb") as file:
        return file.read().decode().strip()


def model_stored(name: str) -> bool:
    return in_storage() and stored_version(name) is not None


def model_upload(name: str) -> str | None:
    """Store MODELS_DIR/<name> as models/<name>/ (replacing what was there). Returns the new
    version, or None when models are not kept in storage."""
    if not in_storage():
        return None
    folder = _models_dir() / name
    base = f"{PREFIX}/{name}"
    # The marker goes first: a reader meanwhile sees no model rather than a mix of two.
    default_storage.delete(f"{base}/{MARKER}")
    local = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
    local.discard(MARKER)
    for stale in set(_stored_files(base)) - {f"{base}/{rel}" for rel in local}:
        default_storage.delete(stale)
    for relative in sorted(local):
        with open(folder / relative, "rb") as source:
            default_storage.save(f"{base}/{relative}", File(source))
    version = secrets.token_hex(8)
    default_storage.save(f"{base}/{MARKER}", ContentFile(version.encode()))
    (folder / MARKER).write_text(version)
    return version


def model_local(name: str) -> Path:
    """MODELS_DIR/<name>, downloaded first if the stored model is newer than the local copy."""
    folder = _models_dir() / name
    if not in_storage():
        return folder
    version = stored_version(name)
    local_marker = folder / MARKER
    if version is None or (local_marker.is_file() and local_marker.read_text() == version):
        return folder
    base = f"{PREFIX}/{name}"
    folder.parent.mkdir(parents=True, exist_ok=True)
    incoming = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}-"))
    try:
        for stored in _stored_files(base):
            relative = stored[len(base) + 1 :]
            if relative == MARKER:
                continue
            target = incoming / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            with default_storage.open(stored, "rb") as source, open(target, "wb") as out:
                shutil.copyfileobj(source, out)
        (incoming / MARKER).write_text(version)
        old = folder.with_name(f".{folder.name}-old-{secrets.token_hex(4)}")
        if folder.exists():
            folder.rename(old)
        incoming.rename(folder)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(incoming, ignore_errors=True)
    return folder


def models_local_for(backend: str, params: dict) -> None:
    """Before a run: the backend's default model folders, and any folder a parameter names
    inside MODELS_DIR (a model trained by train_suggester), made local."""
    if not in_storage() or backend not in BACKENDS:
        return
    root = _models_dir().resolve()
    names = list(getattr(backend_class(backend), "model_folders", {}).values())
    for value in path_values(backend, params):  # the paths its schema declares
        path = Path(value) if Path(value).is_absolute() else root / value
        try:
            names.append(path.resolve().relative_to(root).as_posix())
        except ValueError:
            continue  # outside MODELS_DIR: a folder of MODEL_PATHS_ALLOWED, local by design
    for name in dict.fromkeys(names):
        model_local(name)
