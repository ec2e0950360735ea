"""``python -m corefscore score|iaa|convert``: the stand-alone scorer's command line.

    score GOLD SYSTEM --format scico|chemu [--keep-singletons]
          [--hierarchy-count closure|raw] [--json]
          [--per-topic] [--topics FILE | --subset FIELD] [--level topic|corpus]
          [--cluster-ids per-topic|global]
    iaa FILE1 FILE2 [FILE...] --format scico|chemu [--json] [--csv OUT] [--names a,b,...]
    convert INPUT OUTPUT --from FORMAT --to FORMAT [--skip-invalid]

Files are read with the project's readers (``corefscore.formats``, through
``corefscore.scoring.files`` for scoring); an invalid file is reported as they report it
(file, line, field). Exit status: 0 done, 1 an input that cannot be read, scored or written
(nothing is written), 2 a usage error (argparse's, or a conversion between formats that
cannot be done: the message lists what can).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from corefscore.formats import FORMATS, READERS, WRITERS, FormatErrors
from corefscore.formats.convert import UnsupportedConversion, UnwritableTarget, check_pair, convert
from corefscore.scoring import api, from_files, granularity, tables
from corefscore.scoring.files import InputError, read_topics, topic_ids
from corefscore.scoring.plain import TopicAnnotation

EXIT_INPUT_ERROR = 1
EXIT_USAGE = 2  # argparse's own status for a usage error


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m corefscore",
        description="Coreference, hierarchy and anaphora scores (metrics.md), and "
        "inter-annotator agreement, and conversion between annotation formats.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score a system file against a gold file")
    score.add_argument("gold")
    score.add_argument("system")
    score.add_argument(
        "--per-topic", action="store_true", help="also score each topic alone, a row per topic"
    )
    chosen = score.add_mutually_exclusive_group()
    chosen.add_argument(
        "--topics", metavar="FILE", help="score only the topics whose ids FILE lists (one a line)"
    )
    chosen.add_argument(
        "--subset",
        metavar="FIELD",
        help="score only the gold topics whose boolean FIELD is true (SciCo: hard_10, hard_20, "
        "curated)",
    )
    score.add_argument(
        "--level",
        choices=("topic", "corpus"),
        default="topic",
        help="corpus: all topics as one document (WEC 4.2), cluster ids read as --cluster-ids says",
    )
    score.add_argument(
        "--cluster-ids",
        choices=granularity.CLUSTER_IDS,
        default="per-topic",
        help="at --level corpus: per-topic (default; SciCo's files number clusters anew in "
        "every topic, so an id never joins two topics) or global (an id names one cluster "
        "across the corpus, as WEC's)",
    )
    iaa = commands.add_parser("iaa", help="agreement between annotators (one file each)")
    iaa.add_argument("files", nargs="+", metavar="FILE")
    iaa.add_argument("--csv", metavar="OUT", help="also write the agreement report as CSV to OUT")
    iaa.add_argument(
        "--names", help="comma-separated annotator names, one per file (default 1, 2, ...)"
    )
    for command in (score, iaa):
        command.add_argument("--format", required=True, choices=("scico", "chemu"))
        command.add_argument("--json", action="store_true", help="print JSON instead of a table")
        command.add_argument(
            "--keep-singletons",
            action="store_true",
            help="keep singleton clusters in the coreference metrics",
        )
        command.add_argument(
            "--hierarchy-count",
            choices=("closure", "raw"),
            default="closure",
            help="hierarchy F1 counted over the transitive closure (default: SciCo's released "
            "eval/hypernym.py, as in the paper) or over the raw edges only (not SciCo's: its "
            "pre-release code, for comparison)",
        )
        # Off by default: the bootstrap needs numpy, and the command line starts without it
        # (tests/corefscore/metrics/test_without_numpy.py); the app's reports always have them.
        command.add_argument(
            "--intervals",
            action="store_true",
            help="add 95%% bootstrap intervals over topics (1,000 resamples, seeded)",
        )
    _add_convert(commands)
    return parser


def _add_convert(commands: Any) -> None:
    command = commands.add_parser(
        "convert",
        help="read a file in one format and write it in another",
        description=f"Formats read: {', '.join(READERS)}. Formats written: "
        f"{', '.join(WRITERS)}. brat, webanno-tsv and uima-xmi (and corefi with several "
        "topics) are written to a folder.",
    )
    command.add_argument("input", help="a file, or a folder for the folder formats")
    command.add_argument("output", help="a file, or a folder for the folder formats")
    command.add_argument("--from", dest="from_format", required=True, metavar="FORMAT")
    command.add_argument("--to", dest="to_format", required=True, metavar="FORMAT")
    command.add_argument(
        "--skip-invalid",
        action="store_true",
        help="leave out the invalid records (each named on stderr) instead of refusing the file",
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "convert":
        return _convert(args)
    try:
        if args.command == "score":
            result = _score(args)
        else:
            result = _iaa(args)
    except InputError as error:
        print(str(error), file=sys.stderr)
        return EXIT_INPUT_ERROR
    if args.json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
    else:
        sys.stdout.write(tables.render(args.command, args.format, result))
    return 0


def _score(args: argparse.Namespace) -> dict[str, Any]:
    flags: dict[str, Any] | None = {} if args.subset else None
    if flags is not None and args.format != "scico":
        raise InputError("--subset reads SciCo's topic flags: use --topics FILE with chemu")
    gold = _read_file(args.gold, args.format, flags=flags, field=args.subset)
    system = _read_file(args.system, args.format)
    return from_files.score_topics(
        args.format,
        gold,
        system,
        names=(args.gold, args.system),
        keep_singletons=args.keep_singletons,
        hierarchy_count=args.hierarchy_count,
        intervals=args.intervals,
        per_topic=args.per_topic,
        topic_ids=topic_ids(args.topics) if args.topics else None,
        flags=flags,
        subset=args.subset,
        level=args.level,
        cluster_ids=args.cluster_ids,
    )


def _iaa(args: argparse.Namespace) -> dict[str, Any]:
    if len(args.files) < 2:
        raise InputError("iaa needs at least two files (one per annotator)")
    names = [name.strip() for name in args.names.split(",")] if args.names else None
    if names is not None and len(names) != len(args.files):
        raise InputError(f"--names gives {len(names)} names for {len(args.files)} files")
    annotators = _read_all(args.files, args.format)
    result = from_files.iaa(
        annotators,
        format=args.format,
        names=names,
        keep_singletons=args.keep_singletons,
        hierarchy_count=args.hierarchy_count,
        intervals=args.intervals,
    )
    if args.format == "chemu" and not args.json:
        result = {**result, "all_annotators": api.alpha_all_annotators(annotators)}
    if args.csv:
        try:
            with open(args.csv, "w", newline="", encoding="utf-8") as stream:
                api.write_iaa_csv(result, stream)
        except OSError as error:
            raise InputError(f"cannot write {args.csv}: {error.strerror}") from None
    return result


def _read_all(paths: Sequence[str], format: str) -> list[list[TopicAnnotation]]:
    """Each file's topics, as the scorers' plain :class:`TopicAnnotation`; the first file (in
    the order given) with a problem raises :class:`InputError`."""
    return [_read_file(path, format) for path in paths]


def _read_file(
    path: str, format: str, *, flags: dict[str, Any] | None = None, field: str | None = None
) -> list[TopicAnnotation]:
    """One file's topics (``scoring.files``); what it holds but is not scored goes to stderr."""
    return read_topics(path, format, flags=flags, field=field, note=_to_stderr)


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


def _convert(args: argparse.Namespace) -> int:
    """``convert``: the pair checked first (status 2), then read and written (status 1 for an
    input or output that fails); the warnings and what was skipped go to stderr."""
    try:
        check_pair(args.from_format, args.to_format)
    except UnsupportedConversion as error:
        print(f"python -m corefscore convert: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        done = convert(
            args.input,
            args.output,
            from_format=args.from_format,
            to_format=args.to_format,
            skip_invalid=args.skip_invalid,
        )
    except FormatErrors as error:
        hint = "" if args.skip_invalid else " (--skip-invalid leaves the invalid records out)"
        print(f"{error}\nnothing written{hint}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except OSError as error:
        print(f"{error.filename or args.input}: {error.strerror or error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except UnwritableTarget as error:
        print(f"cannot write {args.output}: {error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    for skipped in done.skipped:
        print(skipped, file=sys.stderr)
    # A writer warns once per item it cannot hold (a cluster per document...): said once each.
    for warning, times in Counter(str(warning) for warning in done.warnings).items():
        print(f"warning: {warning}" + (f" ({times} times)" if times > 1 else ""), file=sys.stderr)
    print(
        f"{done.topics} topic(s) read from {args.input} ({FORMATS[args.from_format].label}), "
        f"written to {args.output} ({FORMATS[args.to_format].label})"
    )
    return 0
