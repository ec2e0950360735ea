"""Train a suggestion backend's model: `python -m modelserve.train --backend chemu|trained [TRAIN]`.

The one training entry point: this command line reads a file; `manage.py train_suggester`
reads a project's gold from the database and `make up` trains the default ChEMU model when it
is missing, and both call `train_topics` here.

- chemu: TRAIN is a ChEMU-Ref jsonlines file (default: the ChEMU-Ref training set in
  ../shared/data beside the checkout). Links with an empty side are skipped (and counted).
  Both steps are trained: the link model (var/models/chemu) and the mention tagger
  (var/models/chemu-mentions), and the held-out snippets are scored end to end from their
  raw text; `--seeds 0,1,2` repeats that per seed (the first seed's models are saved) and
  writes the figures to var/models/chemu-heldout.json. `--links-only`: the link model alone
  (what `make up` trains).
- trained: TRAIN is a SciCo jsonl file with gold clusters and hierarchy (SciCo's 4-class
  mention-pair model on a MiniLM or local encoder, thresholds tuned on held-out topics).

A seeded share of the topics is held out; their scores are printed and saved with the model
under var/models/<backend>/ (var/ = COREFAPP_VAR_DIR or <repo>/var). No Django: this runs
without settings.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from corefapp.runtime.defaults import REPO_ROOT, models_dir

DEFAULT_CHEMU_TRAIN = REPO_ROOT.parent / "shared" / "data" / "chemu-ref" / "train.english.jsonlines"
# backend -> (file format, held-out share, epochs)
TRAINABLE: dict[str, tuple[str, float, int]] = {
    "chemu": ("chemu", 0.15, 3),
    "trained": ("scico", 0.2, 20),
}
MENTION_EPOCHS = 20


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m modelserve.train", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--backend", required=True, choices=sorted(TRAINABLE))
    parser.add_argument(
        "train",
        nargs="?",
        type=Path,
        default=None,
        help=f"training file (chemu's default: {DEFAULT_CHEMU_TRAIN})",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="model directory (default: var/models/BACKEND)"
    )
    parser.add_argument(
        "--holdout", type=float, default=None, help="share of topics held out for scoring"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument(
        "--limit", type=int, default=None, help="use only the first N topics (quick runs)"
    )
    parser.add_argument(
        "--encoder",
        default=None,
        help="trained, chemu mentions: a local Hugging Face encoder (default: MiniLM)",
    )
    parser.add_argument(
        "--device", default="auto", help="auto (CUDA if available), cpu, cuda or cuda:N"
    )
    parser.add_argument(
        "--links-only", action="store_true", help="chemu: train the link model alone"
    )
    parser.add_argument(
        "--seeds", default=None, help="chemu: held-out runs for these seeds (default: --seed)"
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="chemu: seeds trained at once (one process each)"
    )
    parser.add_argument(
        "--vector-cache",
        type=Path,
        default=None,
        help="chemu: keep the encoder vectors in this file between runs (experiments)",
    )
    parser.add_argument(
        "--mention-epochs", type=int, default=None, help="chemu: the mention tagger's epochs"
    )
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        help="chemu: held-out figures JSON (default: var/models/chemu-heldout.json)",
    )
    args = parser.parse_args(argv)
    path = args.train or (DEFAULT_CHEMU_TRAIN if args.backend == "chemu" else None)
    if path is None or not path.is_file():
        print(f"error: training file {path} not found", file=sys.stderr)
        return 2
    from modelserve.backends import models_dir_set

    models_dir_set(models_dir())
    if args.backend == "chemu" and not args.links_only:
        from modelserve.training.chemu_pipeline import RESULTS_FILE, train_chemu_pipeline

        topics = read_topics(args.backend, path, args.limit, print)
        out = args.out or models_dir() / "chemu"
        seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else [args.seed]
        train_chemu_pipeline(
            topics,
            links_out=out,
            mentions_out=out.parent / f"{out.name}-mentions",
            seeds=seeds,
            holdout_fraction=0.15 if args.holdout is None else args.holdout,
            link_epochs=args.epochs or TRAINABLE["chemu"][2],
            mention_epochs=args.mention_epochs or MENTION_EPOCHS,
            encoder_path=args.encoder,
            device=args.device,
            results_path=args.results or out.parent / RESULTS_FILE,
            jobs=args.jobs,
            vector_cache=args.vector_cache,
            log=lambda line: print(line, flush=True),
        )
        return 0
    train_file(
        args.backend,
        path,
        args.out,
        seed=args.seed,
        holdout=args.holdout,
        epochs=args.epochs,
        device=args.device,
        limit=args.limit,
        encoder=args.encoder,
        log=lambda line: print(line, flush=True),
    )
    return 0


def train_file(
    backend: str,
    path: Path,
    out: Path | None = None,
    *,
    limit: int | None = None,
    log: Callable[[str], None] = print,
    **options: Any,
) -> dict[str, Any] | None:
    """Read the backend's training file (invalid records skipped and counted), then train."""
    topics = read_topics(backend, path, limit, log)
    return train_topics(backend, topics, out, log=log, **options)


def read_topics(
    backend: str, path: Path, limit: int | None, log: Callable[[str], None]
) -> list[Any]:
    from annotation.domain.formats import read

    report = read(TRAINABLE[backend][0], path, skip_invalid=True)
    topics = report.topics[:limit] if limit else report.topics
    log(
        f"read {len(report.topics)} topics from {path}: "
        f"{len(report.skipped)} invalid records skipped, {len(report.warnings)} warnings"
    )
    return topics


def train_topics(
    backend: str,
    topics: list[Any],
    out: Path | None = None,
    *,
    seed: int = 0,
    holdout: float | None = None,
    epochs: int | None = None,
    device: str = "auto",
    encoder: str | None = None,
    log: Callable[[str], None] = print,
) -> dict[str, Any] | None:
    """Train `backend` on `topics` (TopicData) into `out` (default: its models folder)."""
    from modelserve.backends import models_dir as backend_models_dir

    _, default_holdout, default_epochs = TRAINABLE[backend]
    holdout = default_holdout if holdout is None else holdout
    epochs = default_epochs if epochs is None else epochs
    out = out or backend_models_dir() / backend
    if backend == "chemu":
        from modelserve.backends.chemu_model import limit_cpu_threads
        from modelserve.backends.chemu_training import train_chemu

        limit_cpu_threads()
        train_chemu(
            topics,
            out,
            seed=seed,
            holdout_fraction=holdout,
            epochs=epochs,
            device=device,
            log=log,
        )
        return None
    from modelserve.training.suggester import train_suggester

    return train_suggester(
        topics,
        out,
        encoder_path=encoder,
        seed=seed,
        holdout_fraction=holdout,
        epochs=epochs,
        device=device,
        log=log,
    )


if __name__ == "__main__":
    raise SystemExit(main())
