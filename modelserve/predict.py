"""Run a suggestion backend over a file: `python -m modelserve.predict --backend chemu IN OUT`.

chemu: IN is ChEMU-Ref jsonlines. The mentions its relations use are the candidate mentions;
its relations themselves are ignored. OUT is the same snippets in the same format with the
predicted relations. No Django: this runs without settings.
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
    args = parser.parse_args(argv)
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
    backend = ChemuBackend(
        {"model_dir": args.model, "device": args.device, "threshold": args.threshold}
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


if __name__ == "__main__":
    raise SystemExit(main())
