"""The suggestion backends by name, each built once per process and parameter set.

A Celery worker asks `get_backend(name, params)` for every run; the first call loads the model,
later calls get the same object, so a worker loads a model once. Backends are imported lazily
by module path, so importing this module loads no model and an optional backend whose module
is missing fails only when it is asked for.
"""

from __future__ import annotations

import importlib
import json
import threading
from pathlib import Path
from typing import Any

from modelserve.backends.base import Backend

# name -> "module" or "module:Class"; without a class, the module's class whose `name` is the key.
BACKENDS: dict[str, str] = {
    "minilm": "modelserve.backends.minilm:MiniLMBackend",
    "trained": "modelserve.backends.trained:TrainedBackend",
    "cross-encoder": "modelserve.backends.cross_encoder:CrossEncoderBackend",
    "chemu": "modelserve.backends.chemu",
    # SciCo's baselines (docs/models.md)
    "edit-distance": "modelserve.backends.edit_distance:EditDistanceBackend",
    "same-head-lemma": "modelserve.backends.same_head_lemma:SameHeadLemmaBackend",
    "singleton": "modelserve.backends.singleton:SingletonBackend",
    "entailment": "modelserve.backends.entailment:EntailmentBackend",
}
DEFAULT_BACKEND = "minilm"

_models_dir: Path | None = None

_BUILT: dict[tuple[str, str], Backend] = {}
_LOCK = threading.Lock()


class UnknownBackend(LookupError):
    pass


def models_dir_set(path: Path) -> None:
    """Where trained models live by default. Model code reads no settings: the caller says
    (the suggestions app from Django's MODELS_DIR when it starts, a command line from its
    defaults)."""
    global _models_dir
    _models_dir = Path(path)


def models_dir() -> Path:
    if _models_dir is None:
        raise RuntimeError("no models directory: call modelserve.backends.models_dir_set() first")
    return _models_dir


def available_backends() -> list[str]:
    return sorted(BACKENDS)


def get_backend(name: str, params: dict[str, Any] | None = None) -> Backend:
    """The backend `name` built with `params` (the same object for equal parameters)."""
    if name not in BACKENDS:
        raise UnknownBackend(f"unknown backend {name!r}; known: {', '.join(available_backends())}")
    key = (name, json.dumps(params or {}, sort_keys=True, default=str))
    with _LOCK:
        if key not in _BUILT:
            _BUILT[key] = backend_class(name)(dict(params or {}))
        return _BUILT[key]


def backend_class(name: str) -> type:
    module_name, _, class_name = BACKENDS[name].partition(":")
    module = importlib.import_module(module_name)
    if class_name:
        backend: type = getattr(module, class_name)
        return backend
    for value in vars(module).values():
        if (
            isinstance(value, type)
            and value.__module__ == module.__name__
            and getattr(value, "name", None) == name
        ):
            return value
    raise UnknownBackend(f"{module_name} defines no class with name = {name!r}")
