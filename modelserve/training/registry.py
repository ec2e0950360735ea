"""The trainable backends by name: the format of their training file, their defaults, and the
function that trains them. `python -m modelserve.train`, `manage.py train_suggester` and the
start-up step all train through `train_topics` (or `train_file`) here.

Pure: no Django, no settings. Every path (the training file, the model folder) is passed in;
the callers take them from their arguments or from Django settings. A new trainable backend
is one more entry in `TRAINABLE`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from corefscore.corpus import TopicData


@dataclass(frozen=True)
class Trainable:
    format: str  # the training file's format (a name in corefscore.formats.FORMATS)
    holdout: float  # the share of topics held out for scoring, by default
    epochs: int
    # "module:function", imported when training so that no Django process imports torch at
    # start-up; it takes (topics, out, *, seed, holdout_fraction, epochs, device, log) and
    # the encoder under `encoder_keyword`
    trainer: str
    encoder_keyword: str | None  # None: the trainer takes no encoder (`encoder` plays no part)
    setup: str | None = None  # "module:function" called with no argument before training


TRAINABLE: dict[str, Trainable] = {
    # the ChEMU link model (pair features, no encoder)
    "chemu": Trainable(
        "chemu",
        0.15,
        3,
        "modelserve.backends.chemu_training:train_chemu",
        encoder_keyword=None,
        setup="modelserve.backends.chemu_model:limit_cpu_threads",
    ),
    # SciCo's 4-class mention-pair model on a MiniLM or local encoder
    "trained": Trainable(
        "scico",
        0.2,
        20,
        "modelserve.training.suggester:train_suggester",
        encoder_keyword="encoder_path",
    ),
    # SciCo's unified model fine-tuned (B.2: 1 epoch); modelserve/training/cross_encoder.py
    "cross-encoder": Trainable(
        "scico",
        0.2,
        1,
        "modelserve.training.cross_encoder:train_registered",
        encoder_keyword="encoder",
    ),
}


def _function(name: str) -> Callable[..., Any]:
    module, function = name.split(":")
    found: Callable[..., Any] = getattr(import_module(module), function)
    return found


def read_topics(
    backend: str, path: Path, limit: int | None = None, log: Callable[[str], None] = print
) -> list[TopicData]:
    """The backend's training file as topics (invalid records skipped and counted)."""
    from corefscore.formats import read

    report = read(TRAINABLE[backend].format, path, skip_invalid=True)
    topics = report.topics[:limit] if limit else report.topics
    log(
        f"read {len(report.topics)} topics from {path}: "
        f"{len(report.skipped)} invalid records skipped, {len(report.warnings)} warnings"
    )
    return topics


def train_topics(
    backend: str,
    topics: list[TopicData],
    out: Path,
    *,
    seed: int = 0,
    holdout: float | None = None,
    epochs: int | None = None,
    device: str = "auto",
    encoder: str | None = None,
    log: Callable[[str], None] = print,
) -> dict[str, Any] | None:
    """Train `backend` on `topics` into the folder `out`; the summary if the backend gives one."""
    trainable = TRAINABLE[backend]
    if trainable.setup:
        _function(trainable.setup)()
    options: dict[str, Any] = {
        "seed": seed,
        "holdout_fraction": trainable.holdout if holdout is None else holdout,
        "epochs": trainable.epochs if epochs is None else epochs,
        "device": device,
        "log": log,
    }
    if trainable.encoder_keyword:
        options[trainable.encoder_keyword] = encoder
    summary: dict[str, Any] | None = _function(trainable.trainer)(topics, Path(out), **options)
    return summary


def train_file(
    backend: str,
    path: Path,
    out: Path,
    *,
    limit: int | None = None,
    log: Callable[[str], None] = print,
    **options: Any,
) -> dict[str, Any] | None:
    """Read the backend's training file, then train (`options`: those of `train_topics`)."""
    return train_topics(backend, read_topics(backend, path, limit, log), out, log=log, **options)
