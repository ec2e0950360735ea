"""Run a suggestion backend over a file: `python -m modelserve.predict --backend chemu IN OUT`.

chemu: IN is ChEMU-Ref jsonlines. The mentions its relations use are the candidate mentions;
its relations themselves are ignored. OUT is the same snippets in the same format with the
predicted relations between those mentions (a trained mention tagger plays no part). With
`--raw`, IN needs only `doc_key` and `sentences` (any relations are ignored): the mention
tagger finds the mentions, the link model links them, and OUT holds the predicted relations
in the five relation lists (a discontinuous mention as its list of spans).

A thin command line over `modelserve.prediction` (where the backends are registered); the
models folder is `--models-dir`, else the MODELS_DIR setting.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from modelserve.command_settings import SettingsUnreadable, path_setting
from modelserve.prediction import PREDICTORS, ModelMissing, PredictOptions


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m modelserve.predict", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--backend", required=True, choices=sorted(PREDICTORS))
    parser.add_argument(
        "--format",
        default=None,
        choices=sorted({p.format for p in PREDICTORS.values()}),
        help="IN and OUT's format (default and only choice: the backend's; SciCo backends: scico)",
    )
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a backend parameter (VALUE read as JSON, else as text), e.g. decoding=paper",
    )
    parser.add_argument(
        "input", type=Path, help="ChEMU-Ref jsonlines (its relations give the mentions)"
    )
    parser.add_argument("output", type=Path, help="where to write the predicted relations")
    parser.add_argument(
        "--models-dir",
        type=Path,
        default=None,
        help="where the default models are (default: the MODELS_DIR setting, var/models)",
    )
    parser.add_argument(
        "--model", type=Path, default=None, help="model directory (default: MODELS_DIR/chemu)"
    )
    parser.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="least link probability (default: the model's)",
    )
    parser.add_argument(
        "--device", default="auto", help="auto (CUDA if available), cpu, cuda or cuda:N"
    )
    parser.add_argument(
        "--raw", action="store_true", help="find the mentions too (IN: doc_key and sentences)"
    )
    parser.add_argument(
        "--mentions-model",
        type=Path,
        default=None,
        help="--raw: the mention tagger's directory (default: MODELS_DIR/chemu-mentions)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    from corefscore.formats import read, write

    args = parser().parse_args(argv)
    predictor = PREDICTORS[args.backend]
    if args.format is not None and args.format != predictor.format:
        print(f"error: the {args.backend} backend reads {predictor.format}", file=sys.stderr)
        return 2
    try:
        params = dict(_param(text) for text in args.param)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    predict = predictor.raw if args.raw else predictor.given
    if predict is None:
        print(f"error: the {args.backend} backend cannot predict from raw text", file=sys.stderr)
        return 2
    try:
        models_dir = args.models_dir or path_setting("MODELS_DIR")
    except SettingsUnreadable as error:
        print(f"error: {error} (--models-dir)", file=sys.stderr)
        return 2
    options = PredictOptions(
        models_dir=models_dir,
        model=args.model,
        mentions_model=args.mentions_model,
        threshold=args.threshold,
        device=args.device,
        params=params,
    )
    report = read(predictor.format, args.input, skip_invalid=True)
    if report.skipped:
        print(f"{args.input}: {len(report.skipped)} invalid records skipped", file=sys.stderr)
    started = time.monotonic()
    try:
        predicted = predict(report.topics, options)
    except ModelMissing as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    seconds = time.monotonic() - started
    write(predictor.format, predicted, args.output)
    mentions = sum(len(t.mentions) for t in predicted)
    links = sum(len(t.links) for t in predicted)
    found = f"{mentions} mentions and " if args.raw else ""
    print(
        f"wrote {found}{links} relations for {len(predicted)} snippets to {args.output} "
        f"({seconds:.1f} s, {len(predicted) / max(seconds, 1e-9):.1f} snippets/s)",
        file=sys.stderr,
    )
    return 0


def _param(text: str) -> tuple[str, Any]:
    key, sign, value = text.partition("=")
    if not sign or not key:
        raise ValueError(f"--param {text!r}: write KEY=VALUE")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


if __name__ == "__main__":
    raise SystemExit(main())
