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
from pathlib import Path
from typing import Any, Protocol

from annotation.domain.corpus import TopicData


class TrainFunction(Protocol):
    def __call__(
        self,
        topics: list[TopicData],
        out: Path,
        *,
        seed: int,
        holdout_fraction: float,
        epochs: int,
        device: str,
        encoder: str | None,
        log: Callable[[str], None],
    ) -> dict[str, Any] | None: ...


@dataclass(frozen=True)
class Trainable:
    format: str  # the training file's format (a name in annotation.domain.formats.FORMATS)
    holdout: float  # the share of topics held out for scoring, by default
    epochs: int
    train: TrainFunction


def _train_chemu_links(
    topics: list[TopicData],
    out: Path,
    *,
    seed: int,
    holdout_fraction: float,
    epochs: int,
    device: str,
    encoder: str | None,
    log: Callable[[str], None],
) -> dict[str, Any] | None:
    """The ChEMU link model (pair features, no encoder: `encoder` plays no part)."""
    from modelserve.backends.chemu_model import limit_cpu_threads
    from modelserve.backends.chemu_training import train_chemu

    limit_cpu_threads()
    train_chemu(
        topics,
        out,
        seed=seed,
        holdout_fraction=holdout_fraction,
        epochs=epochs,
        device=device,
        log=log,
    )
    return None


def _train_pair_model(
    topics: list[TopicData],
    out: Path,
    *,
    seed: int,
    holdout_fraction: float,
    epochs: int,
    device: str,
    encoder: str | None,
    log: Callable[[str], None],
) -> dict[str, Any] | None:
    """SciCo's 4-class mention-pair model on a MiniLM or local encoder."""
    from modelserve.training.suggester import train_suggester

    return train_suggester(
        topics,
        out,
        encoder_path=encoder,
        seed=seed,
        holdout_fraction=holdout_fraction,
        epochs=epochs,
        device=device,
        log=log,
    )


def _train_cross_encoder(
    topics: list[TopicData],
    out: Path,
    *,
    seed: int,
    holdout_fraction: float,
    epochs: int,
    device: str,
    encoder: str | None,
    log: Callable[[str], None],
) -> dict[str, Any] | None:
    from modelserve.training.cross_encoder import train_registered

    return train_registered(
        topics,
        out,
        seed=seed,
        holdout_fraction=holdout_fraction,
        epochs=epochs,
        device=device,
        encoder=encoder,
        log=log,
    )


TRAINABLE: dict[str, Trainable] = {
    "chemu": Trainable("chemu", 0.15, 3, _train_chemu_links),
    "trained": Trainable("scico", 0.2, 20, _train_pair_model),
    # SciCo's unified model fine-tuned (B.2: 1 epoch); modelserve/training/cross_encoder.py
    "cross-encoder": Trainable("scico", 0.2, 1, _train_cross_encoder),
}


def read_topics(
    backend: str, path: Path, limit: int | None = None, log: Callable[[str], None] = print
) -> list[TopicData]:
    """The backend's training file as topics (invalid records skipped and counted)."""
    from annotation.domain.formats import read

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
    return trainable.train(
        topics,
        Path(out),
        seed=seed,
        holdout_fraction=trainable.holdout if holdout is None else holdout,
        epochs=trainable.epochs if epochs is None else epochs,
        device=device,
        encoder=encoder,
        log=log,
    )


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
