"""``python -m annotation.domain.scoring score|iaa``: the stand-alone scorer's command line.

    score GOLD SYSTEM --format scico|chemu [--keep-singletons] [--hierarchy-count closure|raw] [--json]
    iaa FILE1 FILE2 [FILE...] --format scico|chemu [--json] [--csv OUT] [--names a,b,...]

Files are read with the project's readers (``annotation.domain.formats``); an invalid file
is reported as they report it (file, line, field) and the command exits with status 1.
ChEMU-Ref links with an empty side are not scored (metrics.md): they are dropped, and
their count is said on stderr. Imports are deferred so that start-up stays short.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

EXIT_INPUT_ERROR = 1


class InputError(Exception):
    """A file could not be read or scored; the message is what the user sees."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m annotation.domain.scoring",
        description="Coreference, hierarchy and anaphora scores (metrics.md), and inter-annotator agreement.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score a system file against a gold file")
    score.add_argument("gold")
    score.add_argument("system")
    iaa = commands.add_parser("iaa", help="agreement between annotators (one file each)")
    iaa.add_argument("files", nargs="+", metavar="FILE")
    iaa.add_argument("--csv", metavar="OUT", help="also write the agreement report as CSV to OUT")
    iaa.add_argument("--names", help="comma-separated annotator names, one per file (default 1, 2, ...)")
    for command in (score, iaa):
        command.add_argument("--format", required=True, choices=("scico", "chemu"))
        command.add_argument("--json", action="store_true", help="print JSON instead of a table")
        command.add_argument(
            "--keep-singletons", action="store_true", help="keep singleton clusters in the coreference metrics"
        )
        command.add_argument(
            "--hierarchy-count", choices=("closure", "raw"), default="closure",
            help="hierarchy F1 counted over the transitive closure (metrics.md, default) or over the raw "
            "relations as SciCo's eval/hypernym.py counts them",
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "score":
            result = _score(args)
        else:
            result = _iaa(args)
    except InputError as error:
        print(str(error), file=sys.stderr)
        return EXIT_INPUT_ERROR
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        from annotation.domain.scoring import tables

        sys.stdout.write(tables.render(args.command, args.format, result))
    return 0


def _score(args: argparse.Namespace) -> dict:
    from annotation.domain.scoring import api

    gold, system = _read_all([args.gold, args.system], args.format)
    try:
        if args.format == "scico":
            return api.score_scico(
                gold, system, keep_singletons=args.keep_singletons, hierarchy_count=args.hierarchy_count
            )
        return api.score_chemu(gold, system)
    except api.ScoringInputError as error:
        raise InputError(f"cannot score {args.gold} against {args.system}: {error}") from None


def _iaa(args: argparse.Namespace) -> dict:
    from annotation.domain.scoring import api

    if len(args.files) < 2:
        raise InputError("iaa needs at least two files (one per annotator)")
    names = [name.strip() for name in args.names.split(",")] if args.names else None
    if names is not None and len(names) != len(args.files):
        raise InputError(f"--names gives {len(names)} names for {len(args.files)} files")
    annotators = _read_all(args.files, args.format)
    try:
        result = api.iaa(
            annotators, scheme=args.format, names=names, keep_singletons=args.keep_singletons,
            hierarchy_count=args.hierarchy_count,
        )
    except api.ScoringInputError as error:
        raise InputError(f"cannot compute agreement: {error}") from None
    if args.format == "chemu" and not args.json:
        result = {**result, "all_annotators": api.alpha_all_annotators(annotators)}
    if args.csv:
        try:
            with open(args.csv, "w", newline="", encoding="utf-8") as stream:
                api.write_iaa_csv(result, stream)
        except OSError as error:
            raise InputError(f"cannot write {args.csv}: {error.strerror}") from None
    return result


def _read_all(paths: Sequence[str], format: str) -> list[list]:
    """Each file's topics, as the scorers' plain :class:`TopicAnnotation`.

    Reading dominates the run time (JSON and validation of every token), so with several
    files and several CPUs the files are read in parallel by forked workers, which send back
    only the small plain annotations. Messages are printed in file order either way.
    """
    outcomes = None
    workers = min(len(paths), _cpu_count())
    if workers > 1:
        import multiprocessing

        if "fork" in multiprocessing.get_all_start_methods():
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                pending = pool.map_async(_read_outcome, [(path, format) for path in paths], chunksize=1)
                _warm_up()  # while the workers read (forked first: no numpy state in them)
                outcomes = pending.get()
    if outcomes is None:
        outcomes = [_read_outcome((path, format)) for path in paths]
    topics = []
    for path, (error, result, dropped) in zip(paths, outcomes):
        if error:
            raise InputError(error)
        if dropped:
            print(f"{path}: {dropped} link(s) with an empty side are not scored", file=sys.stderr)
        topics.append(result)
    return topics


def _warm_up() -> None:
    """Import what scoring needs, so that it overlaps with the reading."""
    import numpy  # noqa: F401

    from annotation.domain.scoring import api  # noqa: F401


def _cpu_count() -> int:
    import os

    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _read_outcome(job: tuple[str, str]) -> tuple[str | None, list, int]:
    """(error message or None, topics, number of dropped links): plain values, so that a
    worker can send them back."""
    path, format = job
    try:
        topics, dropped = _read(path, format)
        from annotation.domain.scoring.plain import ScoringInputError, from_topic

        try:
            return None, [from_topic(topic) for topic in topics], dropped
        except ScoringInputError as error:
            return f"cannot score {path}: {error}", [], 0
    except InputError as error:
        return str(error), [], 0


def _read(path: str, format: str) -> tuple[list, int]:
    """Topics of one file, read by the project's reader, and how many links it dropped;
    errors become an :class:`InputError`."""
    from annotation.domain.formats import FormatErrors, read

    try:
        report = read(format, path, skip_invalid=format == "chemu")
    except FormatErrors as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise InputError(f"{path}: {error.strerror or error}") from None
    whole_records = [skipped for skipped in report.skipped if skipped.scope == "record"]
    if whole_records:
        errors = [error for skipped in whole_records for error in skipped.errors]
        raise InputError("\n".join([f"{len(errors)} error(s) in the input:", *(f"  {e}" for e in errors)]))
    return report.topics, len(report.skipped)
