"""Run a suggestion backend over a file: `python -m modelserve.predict --backend chemu IN OUT`.

chemu: IN is ChEMU-Ref jsonlines. The mentions its relations use are the candidate mentions;
its relations themselves are ignored. OUT is the same snippets in the same format with the
predicted relations. With `--raw`, IN needs only `doc_key` and `sentences` (any relations
are ignored): the mention tagger finds the mentions, the link model links them, and OUT
holds the predicted relations in the five relation lists (a discontinuous mention as its
list of spans). No Django: this runs without settings.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

PREDICTABLE = ("chemu",)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m modelserve.predict", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--backend", required=True, choices=PREDICTABLE)
    parser.add_argument(
        "input", type=Path, help="ChEMU-Ref jsonlines (its relations give the mentions)"
    )
    parser.add_argument("output", type=Path, help="where to write the predicted relations")
    parser.add_argument(
        "--model", type=Path, default=None, help="model directory (default: var/models/chemu)"
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
        help="--raw: the mention tagger's directory (default: var/models/chemu-mentions)",
    )
    args = parser.parse_args(argv)
    if args.raw:
        return predict_raw_command(args)
    return predict_chemu_command(args)


def predict_chemu_command(args: argparse.Namespace) -> int:
    from annotation.domain.formats.chemu import read_chemu_jsonlines, write_chemu_jsonlines
    from corefapp.runtime.defaults import models_dir
    from modelserve.backends import models_dir_set
    from modelserve.backends.chemu import ChemuBackend, with_links

    models_dir_set(models_dir())
    report = read_chemu_jsonlines(args.input, skip_invalid=True)
    if report.skipped:
        print(f"{args.input}: {len(report.skipped)} invalid records skipped", file=sys.stderr)
    # the given mentions only: a trained tagger's proposals would be links to mentions the
    # output does not have (issue 30); --raw is the mode that finds mentions
    backend = ChemuBackend(
        {
            "model_dir": args.model,
            "device": args.device,
            "threshold": args.threshold,
            "propose_mentions": False,
        }
    )
    started = time.monotonic()
    predicted = []
    for topic in report.topics:
        candidates = with_links(topic, [])  # the gold relations play no part in the prediction
        predicted.append(with_links(topic, backend.suggest(candidates).links))
    seconds = time.monotonic() - started
    write_chemu_jsonlines(predicted, args.output)
    links = sum(len(t.links) for t in predicted)
    print(
        f"wrote {links} relations for {len(predicted)} snippets to {args.output} ({seconds:.1f} s)",
        file=sys.stderr,
    )
    return 0


def predict_raw_command(args: argparse.Namespace) -> int:
    """Mentions and relations from the snippets' text alone."""
    from annotation.domain.formats.chemu import (
        DEFAULT_FIELDS,
        FORMAT,
        read_chemu_jsonlines,
        write_chemu_jsonlines,
    )
    from corefapp.runtime.defaults import models_dir
    from modelserve.backends import chemu_mentions, chemu_model, models_dir_set
    from modelserve.backends.chemu import default_model_dir
    from modelserve.backends.chemu_linking import with_links

    models_dir_set(models_dir())
    mentions_dir = args.mentions_model or chemu_mentions.default_mentions_dir()
    if not chemu_mentions.mentions_trained(mentions_dir):
        print(
            f"error: no trained mention tagger in {mentions_dir}: train one with "
            "`python -m modelserve.train --backend chemu`",
            file=sys.stderr,
        )
        return 2
    report = read_chemu_jsonlines(args.input, skip_invalid=True)
    if report.skipped:
        print(f"{args.input}: {len(report.skipped)} invalid records skipped", file=sys.stderr)
    link_model = chemu_model.load(args.model or default_model_dir(), args.device)
    tagger = chemu_mentions.load_mentions(mentions_dir, link_model.device)
    started = time.monotonic()
    predicted = []
    for topic in report.topics:
        raw = chemu_mentions.without_mentions(topic)
        found = chemu_mentions.suggest_from_text(tagger, link_model, raw, args.threshold)
        result = with_links(chemu_mentions.with_mentions(raw, found.mentions), found.links)
        # all five relation lists, empty ones too, whatever fields the input had
        metadata = dict(result.metadata.get(FORMAT, {}))
        metadata["fields"] = list(
            dict.fromkeys([*metadata.get("fields", DEFAULT_FIELDS), *DEFAULT_FIELDS])
        )
        result.metadata = {**result.metadata, FORMAT: metadata}
        predicted.append(result)
    seconds = time.monotonic() - started
    write_chemu_jsonlines(predicted, args.output)
    mentions = sum(len(t.mentions) for t in predicted)
    links = sum(len(t.links) for t in predicted)
    print(
        f"wrote {mentions} mentions and {links} relations for {len(predicted)} snippets to "
        f"{args.output} ({seconds:.1f} s, {len(predicted) / max(seconds, 1e-9):.1f} snippets/s)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
