"""The suggestion backends by name, each built once per process and parameter set.

A Celery worker asks `get_backend(name, params, models_dir=...)` for every run; the first call
loads the model, later calls get the same object, so a worker loads a model once while it is
among the few most recently used (the cache is bounded by count and bytes: loaded_models.py;
every learnt version is a parameter set of its own). Backends are
imported lazily by module path, so importing this module loads no model and an optional
backend whose module is missing fails only when it is asked for.

Model code reads no settings and keeps no process-wide models folder: a backend class may
name, in `model_folders`, parameters whose default is a folder inside the models folder
(chemu: `{"model_dir": "chemu", ...}`); `get_backend` fills those left unset from the
`models_dir` its caller passes (the suggestions app passes the MODELS_DIR setting).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from modelserve.backends.base import Backend
from modelserve.loaded_models import LoadedModels

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

_BUILT: LoadedModels[tuple[str, str], Backend] = LoadedModels("backends")


class UnknownBackend(LookupError):
    pass


def available_backends() -> list[str]:
    return sorted(BACKENDS)


def get_backend(
    name: str, params: dict[str, Any] | None = None, *, models_dir: Path | None = None
) -> Backend:
    """The backend `name` built with `params` (the same object for equal parameters), its
    `model_folders` parameters left unset taken inside `models_dir`."""
    if name not in BACKENDS:
        raise UnknownBackend(f"unknown backend {name!r}; known: {', '.join(available_backends())}")
    cls = backend_class(name)
    params = dict(params or {})
    if models_dir is not None:
        for parameter, folder in getattr(cls, "model_folders", {}).items():
            if params.get(parameter) is None:
                params[parameter] = str(Path(models_dir) / folder)
    key = (name, json.dumps(params, sort_keys=True, default=str))
    backend: Backend = _BUILT.get(key, lambda: cls(params))
    return backend


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
