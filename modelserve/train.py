"""Train a suggestion backend's model: `python -m modelserve.train --backend chemu|trained [TRAIN]`.

A thin command line over `modelserve.training.registry` (the trainable backends and the one
`train_topics` that `manage.py train_suggester` and the start-up step call too).

- chemu: TRAIN is a ChEMU-Ref jsonlines file (default: the CHEMU_TRAIN_FILE setting, the
  ChEMU-Ref training set in ../shared/data beside the checkout). Links with an empty side are
  skipped (and counted). Both steps are trained: the link model (MODELS_DIR/chemu) and the
  mention tagger (MODELS_DIR/chemu-mentions), and the held-out snippets are scored end to end
  from their raw text; `--seeds 0,1,2` repeats that per seed (the first seed's models are
  saved) and writes the figures to MODELS_DIR/chemu-heldout.json. `--links-only`: the link
  model alone (what `make up` trains).
- trained: TRAIN is a SciCo jsonl file with gold clusters and hierarchy (SciCo's 4-class
  mention-pair model on a MiniLM or local encoder, thresholds tuned on held-out topics).

A seeded share of the topics is held out; their scores are printed and saved with the model
under MODELS_DIR/<backend>/ (`--models-dir`, else the MODELS_DIR setting: var/models, where
var/ is COREFAPP_VAR_DIR or <repo>/var).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from modelserve.command_settings import SettingsUnreadable, path_setting
from modelserve.training.profiles import DEFAULT_PROFILE, PROFILES, profile_hyperparameters
from modelserve.training.registry import TRAINABLE

# backend -> the setting that names its default training file
DEFAULT_FILE_SETTINGS = {"chemu": "CHEMU_TRAIN_FILE"}
MENTION_EPOCHS = 14  # = chemu_mentions.EPOCHS (not imported here: it loads torch)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m modelserve.train", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--backend", required=True, choices=sorted(TRAINABLE))
    parser.add_argument(
        "train",
        nargs="?",
        type=Path,
        default=None,
        help="training file (chemu's default: the CHEMU_TRAIN_FILE setting)",
    )
    parser.add_argument(
        "--models-dir",
        type=Path,
        default=None,
        help="where models are saved by default (default: the MODELS_DIR setting)",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="model directory (default: MODELS_DIR/BACKEND)"
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
        "--encoder-cache",
        type=Path,
        default=None,
        help="chemu: keep each document's encoder vectors in this folder, keyed by its tokens "
        "and the encoder (what the model worker does in MODELS_DIR/encoder-cache)",
    )
    parser.add_argument(
        "--mention-epochs", type=int, default=None, help="chemu: the mention tagger's epochs"
    )
    parser.add_argument(
        "--precision",
        choices=("auto", "bfloat16", "float32"),
        default="float32",
        help="chemu: the tagger network's arithmetic (auto: bfloat16 where the CPU/GPU has "
        "it: 1.6x less CPU time, exact mention F1 0.006 lower in docs/mentions.md's check)",
    )
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        help="chemu: held-out figures JSON (default: MODELS_DIR/chemu-heldout.json)",
    )
    scico = parser.add_argument_group("cross-encoder (defaults: the profile's)")
    scico.add_argument("--dev", type=Path, default=None, help="dev file (default: --holdout)")
    scico.add_argument(
        "--profile",
        choices=sorted(PROFILES),
        default=DEFAULT_PROFILE,
        help="scico-b2: SciCo's recipe exactly (docs/models.md)",
    )
    scico.add_argument("--lr", type=float, default=None, help="default 1e-5")
    scico.add_argument("--batch-size", type=int, default=None, help="default 4")
    scico.add_argument(
        "--grad-accum", type=int, default=None, help="gradient accumulation steps (4; scico-b2 32)"
    )
    scico.add_argument("--clip", type=float, default=None, help="gradient clipping norm (1)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        path = args.train
        if path is None and args.backend in DEFAULT_FILE_SETTINGS:
            path = path_setting(DEFAULT_FILE_SETTINGS[args.backend])
        if path is None or not path.is_file():
            print(f"error: training file {path} not found", file=sys.stderr)
            return 2
        out = args.out or (args.models_dir or path_setting("MODELS_DIR")) / args.backend
    except SettingsUnreadable as error:
        print(f"error: {error} (TRAIN, --models-dir or --out)", file=sys.stderr)
        return 2
    command = COMMANDS.get(args.backend, train_one)
    return command(args, path, out)


def log(line: str) -> None:
    print(line, flush=True)


def train_one(args: argparse.Namespace, path: Path, out: Path) -> int:
    """One model from the file, as `manage.py train_suggester` and the start-up step train."""
    from modelserve.training.registry import train_file

    train_file(
        args.backend,
        path,
        out,
        seed=args.seed,
        holdout=args.holdout,
        epochs=args.epochs,
        device=args.device,
        limit=args.limit,
        encoder=args.encoder,
        log=log,
    )
    return 0


def train_chemu_both_steps(args: argparse.Namespace, path: Path, out: Path) -> int:
    """The link model and the mention tagger, scored end to end (`--links-only`: the first)."""
    if args.links_only:
        return train_one(args, path, out)
    from modelserve.training.chemu_pipeline import RESULTS_FILE, train_chemu_pipeline
    from modelserve.training.registry import read_topics

    topics = read_topics(args.backend, path, args.limit, log)
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else [args.seed]
    train_chemu_pipeline(
        topics,
        links_out=out,
        mentions_out=out.parent / f"{out.name}-mentions",
        seeds=seeds,
        holdout_fraction=TRAINABLE["chemu"].holdout if args.holdout is None else args.holdout,
        link_epochs=args.epochs or TRAINABLE["chemu"].epochs,
        mention_epochs=args.mention_epochs or MENTION_EPOCHS,
        encoder_path=args.encoder,
        device=args.device,
        results_path=args.results or out.parent / RESULTS_FILE,
        jobs=args.jobs,
        vector_cache=args.vector_cache,
        vector_folder=args.encoder_cache,
        log=log,
        mention_options={"precision": args.precision},
    )
    return 0


def train_cross_encoder(args: argparse.Namespace, path: Path, out: Path) -> int:
    """SciCo's unified model fine-tuned from `--encoder` (default: the packaged MiniLM)."""
    from modelserve.encoders import default_encoder_path
    from modelserve.training.cross_encoder import train_from_files

    given = {
        "lr": args.lr,
        "batch_size": args.batch_size,
        "gradient_accumulation": args.grad_accum,
        "gradient_clip": args.clip,
    }
    train_from_files(
        path,
        args.dev,
        out,
        encoder=args.encoder or default_encoder_path(),
        hyperparameters=profile_hyperparameters(
            args.profile,
            epochs=args.epochs or 1,
            seed=args.seed,
            **{name: value for name, value in given.items() if value is not None},
        ),
        holdout=0.2 if args.holdout is None else args.holdout,
        device=args.device,
        log=log,
    )
    return 0


# backend -> its command, where it is more than training one model from the file
COMMANDS: dict[str, Callable[[argparse.Namespace, Path, Path], int]] = {
    "chemu": train_chemu_both_steps,
    "cross-encoder": train_cross_encoder,
}


if __name__ == "__main__":
    raise SystemExit(main())
