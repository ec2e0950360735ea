"""Every backend's parameters, declared: name, kind, default. The one place that says which
parameter is a path.

A path parameter names a file or folder the model worker opens, so the server checks it
against the model folders it allows (modelserve.services.settings) wherever parameters come
in: the suggestion settings, a run, an evaluation. A parameter a backend does not declare is
refused there, and again when the worker builds the backend. Recognising paths by their name
(`*_path`, `*_dir`) let the entailment backend's `nli_model` through to `/etc`; a schema names
each one, whatever it is called.

Pure and light: no torch, no Django. The web server reads the schemas without importing a
backend's module (and its model libraries); each backend takes its defaults from here.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PATH = "path"  # a file or folder the worker opens; null: the backend's default
NUMBER = "number"
INTEGER = "integer"
BOOLEAN = "boolean"
CHOICE = "choice"
DEVICE_KIND = "device"  # auto, cpu, cuda, cuda:1, mps: no free text, so nothing path-like
BACKEND = "backend"  # another backend's name (the entailment backend's clusterer)
PARAMS = "params"  # that backend's own parameters, checked by its schema


@dataclass(frozen=True)
class Parameter:
    kind: str
    default: Any = None
    nullable: bool = False  # null means "the backend's default" (the saved, tuned value...)
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    backend_from: str = ""  # PARAMS: the parameter naming the backend they are for


def _path(default: Any = None) -> Parameter:
    return Parameter(PATH, default, nullable=True)


def _number(default: Any, *, nullable: bool = False, minimum: float | None = None) -> Parameter:
    return Parameter(NUMBER, default, nullable=nullable or default is None, minimum=minimum)


def _integer(default: Any, *, minimum: int = 1) -> Parameter:
    return Parameter(INTEGER, default, nullable=default is None, minimum=minimum)


def _boolean(default: bool) -> Parameter:
    return Parameter(BOOLEAN, default)


def _choice(default: str, *choices: str) -> Parameter:
    return Parameter(CHOICE, default, choices=choices)


DECODINGS = ("scico-released", "paper")  # modelserve.backends.scico_decoding.DECODINGS
CONTEXTS = ("document", "sentence")
DEVICE = Parameter(DEVICE_KIND, "auto")
DEVICES = re.compile(r"auto|cpu|mps|cuda(:[0-9]+)?")
SINGLE_PARENT = _boolean(True)  # the runs service passes the project's rule

SCHEMAS: dict[str, dict[str, Parameter]] = {
    "minilm": {
        "encoder_path": _path(),  # null: the packaged all-MiniLM-L6-v2
        "device": DEVICE,
        "max_length": _integer(None),  # null: the encoder's own limit
        "batch_size": _integer(32),
        "context": _choice("document", *CONTEXTS),
        "phrase_weight": _number(0.5, minimum=0),
        "threshold": _number(0.65),
        "hierarchy_threshold": _number(0.4),
        "semantic_floor": _number(0.3),
        "specificity_penalty": _number(0.2),
        "acronym_similarity": _number(0.9),
        "single_parent": SINGLE_PARENT,
    },
    "trained": {
        "model_dir": _path(),  # required: a folder written by train_suggester
        "device": DEVICE,
        "batch_size": _integer(32),
        "decoding": _choice("scico-released", *DECODINGS, "legacy"),
        "agg_threshold": _number(None),  # null: the model's tuned value, else SciCo's 0.6
        "hypernym_threshold": _number(None),
        "cluster_threshold": _number(None),  # legacy decoding
        "hierarchy_threshold": _number(None),
        "single_parent": SINGLE_PARENT,
    },
    "cross-encoder": {
        "model_path": _path(),  # required: a checkpoint folder, or SciCo's Lightning .ckpt
        # the encoder a Lightning .ckpt was fine-tuned from (its config and tokenizer); null:
        # the folder holding the .ckpt
        "base_model": _path(),
        "device": DEVICE,
        "batch_size": _integer(16),
        "max_length": _integer(None),
        "context": _choice("document", *CONTEXTS),
        "decoding": _choice("scico-released", *DECODINGS),
        "agg_threshold": _number(None),  # null: the model's, else SciCo's 0.6
        "hypernym_threshold": _number(None),  # null: the model's, else SciCo's 0.4
        # fp16: half precision on a GPU (float32 on a CPU); fp32: SciCo's; null: what the
        # model was trained with (scico_thresholds.json), else fp16
        "precision": Parameter(CHOICE, None, nullable=True, choices=("fp16", "fp32")),
        "single_parent": SINGLE_PARENT,
    },
    "chemu": {
        "model_dir": _path(),  # required (get_backend: <models folder>/chemu)
        "device": DEVICE,
        "threshold": _number(None),  # null: the value saved with the model
        "mentions_dir": _path(),  # a trained mention tagger; null: no mention proposed
        "propose_mentions": _boolean(True),
        # the ensemble saved beside the link model, when there is one (chemu_ensemble.py)
        "ensemble": _boolean(True),
    },
    "edit-distance": {
        "distance_threshold": _number(0.3, minimum=0),  # lexical_baseline.py
        "single_parent": SINGLE_PARENT,
    },
    "same-head-lemma": {"single_parent": SINGLE_PARENT},
    "singleton": {"single_parent": SINGLE_PARENT},
    "entailment": {
        "nli_model": _path(),  # required: a local NLI checkpoint folder
        "clusters": Parameter(BACKEND, "edit-distance"),
        "clusters_params": Parameter(PARAMS, {}, backend_from="clusters"),
        "decoding": _choice("scico-released", *DECODINGS),
        "device": DEVICE,
        "batch_size": _integer(32),
        "sample": _integer(10),
        "seed": _integer(0, minimum=0),
        "single_parent": SINGLE_PARENT,
    },
}


class ParameterError(ValueError):
    """A parameter the backend does not declare, or a value of the wrong kind; the message is
    for the admin who typed it."""

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(message)
        self.parameter = parameter


PathCheck = Callable[[str, Any], Any]  # (parameter as shown, value) -> the value to keep


def schema(backend: str) -> dict[str, Parameter]:
    if backend not in SCHEMAS:
        raise ParameterError("backend", f"There is no suggestion backend {shown(backend)}.")
    return SCHEMAS[backend]


def defaults(backend: str) -> dict[str, Any]:
    return {name: _copy(p.default) for name, p in schema(backend).items()}


def path_parameters(backend: str) -> list[str]:
    return [name for name, p in schema(backend).items() if p.kind == PATH]


def checked(
    backend: str, params: dict[str, Any], *, path: PathCheck | None = None, prefix: str = ""
) -> dict[str, Any]:
    """`params` as given (not filled with defaults), each value checked against the backend's
    schema; `path` is called for every path given (not null), and its answer kept. Raises
    ParameterError for the first parameter the schema does not know or whose value is not of
    its kind."""
    declared = schema(backend)
    if not isinstance(params, dict):
        raise ParameterError(prefix.rstrip(".") or "params", "Parameters must be an object.")
    out: dict[str, Any] = {}
    for key, value in params.items():
        name = f"{prefix}{key}"
        parameter = declared.get(key)
        if parameter is None:
            known = ", ".join(declared) or "none"
            where = f" (in {prefix.rstrip('.')})" if prefix else ""
            raise ParameterError(
                name,
                f"The {backend} backend has no parameter {shown(key)}{where}. "
                f"Its parameters are: {known}.",
            )
        if parameter.kind == PARAMS:
            owner = parameter.backend_from
            inner = params.get(owner, declared[owner].default)
            _check_value(backend, f"{prefix}{owner}", declared[owner], inner)
            out[key] = checked(str(inner), value or {}, path=path, prefix=f"{name}.")
        elif parameter.kind == PATH and value is not None:
            out[key] = path(name, value) if path is not None else _path_value(name, value)
        else:
            _check_value(backend, name, parameter, value)
            out[key] = value
    return out


def with_defaults(backend: str, params: dict[str, Any] | None) -> dict[str, Any]:
    """What a backend builds with: its defaults, then `params`, checked (no path policy: the
    server resolved the paths before the run was queued)."""
    return {**defaults(backend), **checked(backend, dict(params or {}))}


def path_values(backend: str, params: dict[str, Any]) -> list[str]:
    """Every path the parameters name (nested clusterer parameters too)."""
    found: list[str] = []

    def collect(_: str, value: Any) -> Any:
        found.append(str(value))
        return value

    checked(backend, params, path=collect)
    return found


def shown(value: Any) -> str:
    """A value quoted for a message: JSON with every non-ASCII character escaped (a lone
    surrogate cannot be written back to the client), cut short."""
    text = json.dumps(value, ensure_ascii=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def _path_value(name: str, value: Any) -> Any:
    if not isinstance(value, str | os.PathLike):
        raise ParameterError(name, f"{name} must be the path of a model file or folder.")
    return value


def _check_value(backend: str, name: str, parameter: Parameter, value: Any) -> None:
    if value is None:
        if parameter.nullable:
            return
        raise ParameterError(name, f"{name} cannot be empty.")
    kind = parameter.kind
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if kind == NUMBER and not (number and math.isfinite(value)):
        raise ParameterError(name, f"{name} must be a number, not {shown(value)}.")
    if kind == INTEGER and not (number and float(value).is_integer()):
        raise ParameterError(name, f"{name} must be a whole number, not {shown(value)}.")
    if kind in (NUMBER, INTEGER) and parameter.minimum is not None and value < parameter.minimum:
        raise ParameterError(name, f"{name} must be at least {parameter.minimum:g}.")
    if kind == BOOLEAN and not isinstance(value, bool):
        raise ParameterError(name, f"{name} must be true or false, not {shown(value)}.")
    if kind == CHOICE and value not in parameter.choices:
        raise ParameterError(
            name, f"{name} must be one of {', '.join(parameter.choices)}, not {shown(value)}."
        )
    if kind == DEVICE_KIND and not (isinstance(value, str) and DEVICES.fullmatch(value)):
        raise ParameterError(
            name, f"{name} must be auto, cpu, cuda, cuda:N or mps, not {shown(value)}."
        )
    if kind == BACKEND:
        others = [b for b in SCHEMAS if b != backend]
        if value not in others:
            raise ParameterError(
                name, f"{name} must name another backend ({', '.join(others)}), not {shown(value)}."
            )


def _copy(value: Any) -> Any:
    return dict(value) if isinstance(value, dict) else value
