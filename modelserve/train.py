"""Train a suggestion backend's model from files: `python -m modelserve.train --backend chemu [TRAIN]`.

chemu: TRAIN is a ChEMU-Ref jsonlines file (default: the ChEMU-Ref training set in
../shared/data beside the checkout). Links with an empty side are skipped (and counted).
A seeded share of the snippets is held out; their scores (`score_chemu`, exact and relaxed,
overall and per type) are printed and saved with the model in var/models/chemu/
(var/ = COREFAPP_VAR_DIR or <repo>/var). No Django: this runs without settings.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from corefapp.runtime.defaults import REPO_ROOT, models_dir

DEFAULT_CHEMU_TRAIN = REPO_ROOT.parent / "shared" / "data" / "chemu-ref" / "train.english.jsonlines"
TRAINABLE = ("chemu",)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m modelserve.train", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--backend", required=True, choices=TRAINABLE)
    parser.add_argument(
        "train",
        nargs="?",
        type=Path,
        default=None,
        help=f"training file (default: {DEFAULT_CHEMU_TRAIN})",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="model directory (default: var/models/chemu)"
    )
    parser.add_argument(
        "--holdout",
        type=float,
        default=0.15,
        help="share of snippets held out for scoring (0: none)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument(
        "--limit", type=int, default=None, help="use only the first N snippets (quick runs)"
    )
    parser.add_argument(
        "--device", default="auto", help="auto (CUDA if available), cpu, cuda or cuda:N"
    )
    args = parser.parse_args(argv)
    return train_chemu_command(args)


def train_chemu_command(args: argparse.Namespace) -> int:
    from modelserve.backends import models_dir_set

    path = args.train or DEFAULT_CHEMU_TRAIN
    if not path.is_file():
        print(f"error: training file {path} not found", file=sys.stderr)
        return 2
    models_dir_set(models_dir())
    train_chemu_file(
        path,
        args.out,
        seed=args.seed,
        holdout=args.holdout,
        epochs=args.epochs,
        device=args.device,
        limit=args.limit,
        log=lambda line: print(line, flush=True),
    )
    return 0


def train_chemu_file(
    path: Path,
    out: Path | None = None,
    *,
    seed: int = 0,
    holdout: float = 0.15,
    epochs: int = 3,
    device: str = "auto",
    limit: int | None = None,
    log: Callable[[str], None] = print,
) -> None:
    """The one way the ChEMU model is trained from a file: this command line, and `make up`
    when the default model is missing (modelserve.services.default_models)."""
    from annotation.domain.formats.chemu import read_chemu_jsonlines
    from modelserve.backends.chemu import default_model_dir
    from modelserve.backends.chemu_model import limit_cpu_threads
    from modelserve.backends.chemu_training import train_chemu

    report = read_chemu_jsonlines(path, skip_invalid=True)
    topics = report.topics[:limit] if limit else report.topics
    log(
        f"read {len(report.topics)} snippets from {path}: "
        f"{len(report.skipped)} invalid records skipped, {len(report.warnings)} warnings"
    )
    limit_cpu_threads()
    train_chemu(
        topics,
        out or default_model_dir(),
        seed=seed,
        holdout_fraction=holdout,
        epochs=epochs,
        device=device,
        log=log,
    )


if __name__ == "__main__":
    raise SystemExit(main())
