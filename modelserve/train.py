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
from pathlib import Path

from corefapp.runtime.defaults import REPO_ROOT

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
    from annotation.domain.formats.chemu import read_chemu_jsonlines
    from modelserve.backends.chemu import default_model_dir
    from modelserve.backends.chemu_model import limit_cpu_threads
    from modelserve.backends.chemu_training import train_chemu

    path = args.train or DEFAULT_CHEMU_TRAIN
    if not path.is_file():
        print(f"error: training file {path} not found", file=sys.stderr)
        return 2
    report = read_chemu_jsonlines(path, skip_invalid=True)
    topics = report.topics[: args.limit] if args.limit else report.topics
    print(
        f"read {len(report.topics)} snippets from {path}: {len(report.skipped)} invalid records skipped, "
        f"{len(report.warnings)} warnings",
        flush=True,
    )
    limit_cpu_threads()
    train_chemu(
        topics,
        args.out or default_model_dir(),
        seed=args.seed,
        holdout_fraction=args.holdout,
        epochs=args.epochs,
        device=args.device,
        log=lambda line: print(line, flush=True),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
