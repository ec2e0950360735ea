"""``python -m corefscore.scoring score|iaa``: the stand-alone scorer's command line.

    score GOLD SYSTEM --format scico|chemu [--keep-singletons]
          [--hierarchy-count closure|raw] [--json]
          [--per-topic] [--topics FILE | --subset FIELD] [--level topic|corpus]
          [--cluster-ids per-topic|global]
    iaa FILE1 FILE2 [FILE...] --format scico|chemu [--json] [--csv OUT] [--names a,b,...]

Files are read with the project's readers (``corefscore.formats``); an invalid file
is reported as they report it (file, line, field) and the command exits with status 1.
ChEMU-Ref links with an empty side are not scored (metrics.md): the reader holds them (no link),
and their count is said on stderr. SciCo files are read by the importer's reader, without the
checks the scores do not depend on (``_read_scico``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from corefscore.corpus import TopicData
from corefscore.formats import FormatErrors, read, scico
from corefscore.formats.chemu import held_entries
from corefscore.formats.scico_parser import FORMAT as SCICO
from corefscore.scoring import api, granularity, tables
from corefscore.scoring.plain import ScoringInputError, TopicAnnotation, from_topic

EXIT_INPUT_ERROR = 1


class InputError(Exception):
    """A file could not be read or scored; the message is what the user sees."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m corefscore.scoring",
        description="Coreference, hierarchy and anaphora scores (metrics.md), and "
        "inter-annotator agreement.",
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
        # (tests/domain/metrics/test_without_numpy.py); the app's reports always have them.
        command.add_argument(
            "--intervals",
            action="store_true",
            help="add 95%% bootstrap intervals over topics (1,000 resamples, seeded)",
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
    scoped = args.per_topic or args.topics or args.subset or args.level != "topic"
    try:
        if scoped:
            topic_ids = _topic_ids(args.topics) if args.topics else None
            if flags is not None:
                topic_ids = granularity.flagged(flags, args.subset)
            options = (
                {"keep_singletons": args.keep_singletons, "hierarchy_count": args.hierarchy_count}
                if args.format == "scico"
                else {}
            )
            return api.score_scoped(
                args.format,
                gold,
                system,
                level=args.level,
                per_topic=args.per_topic,
                topic_ids=topic_ids,
                intervals=args.intervals,
                cluster_ids=args.cluster_ids,
                **options,
            )
        if args.format == "scico":
            return api.score_scico(
                gold,
                system,
                keep_singletons=args.keep_singletons,
                hierarchy_count=args.hierarchy_count,
                intervals=args.intervals,
            )
        return api.score_chemu(gold, system, intervals=args.intervals)
    except ScoringInputError as error:
        raise InputError(f"cannot score {args.gold} against {args.system}: {error}") from None


def _topic_ids(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as stream:
            return [line.strip() for line in stream if line.strip()]
    except OSError as error:
        raise InputError(f"{path}: {error.strerror or error}") from None


def _iaa(args: argparse.Namespace) -> dict[str, Any]:
    if len(args.files) < 2:
        raise InputError("iaa needs at least two files (one per annotator)")
    names = [name.strip() for name in args.names.split(",")] if args.names else None
    if names is not None and len(names) != len(args.files):
        raise InputError(f"--names gives {len(names)} names for {len(args.files)} files")
    annotators = _read_all(args.files, args.format)
    try:
        result = api.iaa(
            annotators,
            scheme=args.format,
            names=names,
            keep_singletons=args.keep_singletons,
            hierarchy_count=args.hierarchy_count,
            intervals=args.intervals,
        )
    except ScoringInputError as error:
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


def _read_all(paths: Sequence[str], format: str) -> list[list[TopicAnnotation]]:
    """Each file's topics, as the scorers' plain :class:`TopicAnnotation`; the first file (in
    the order given) with a problem raises :class:`InputError`."""
    return [_read_file(path, format) for path in paths]


def _read_file(
    path: str, format: str, *, flags: dict[str, Any] | None = None, field: str | None = None
) -> list[TopicAnnotation]:
    """One file's topics; with `flags`, topic id -> the value of its SciCo `field` too."""
    try:
        if format == "scico":
            return _read_scico(path, flags, field)
        topics, dropped = _read(path, format)
        if dropped:
            print(f"{path}: {dropped} link(s) with an empty side are not scored", file=sys.stderr)
        return [from_topic(topic) for topic in topics]
    except ScoringInputError as error:
        raise InputError(f"cannot score {path}: {error}") from None


def _read_scico(
    path: str, flags: dict[str, Any] | None = None, field: str | None = None
) -> list[TopicAnnotation]:
    """A SciCo file, read line by line by the importer's reader (``formats/scico.py``), each
    topic reduced at once to its plain annotation (the tokens are not kept).

    The scores only count the tokens, so a line is first read without checking that every
    token is a string; a line with any other problem is read again with every check, so that
    the messages are the importer's, word for word (docs/scoring.md, "Input checks")."""
    file = os.path.basename(path)
    topics: list[TopicAnnotation] = []
    lines: list[scico.ScicoLine] = []
    try:
        for number, line in scico.jsonl_lines(path):
            try:
                parsed = scico.parse_scico_line(
                    line, number, file, flattened=False, token_contents=False
                )
                if parsed.errors:
                    parsed = scico.parse_scico_line(line, number, file, flattened=False)
            except UnicodeDecodeError as error:
                raise InputError(
                    f"{path}: line {number}: not UTF-8 text ({error.reason})"
                ) from None
            if parsed.topic is not None:
                topics.append(from_topic(parsed.topic))
                if flags is not None and field is not None:
                    extra = parsed.topic.metadata.get(SCICO, {}).get("extra", {})
                    flags[topics[-1].topic_id] = extra.get(field)
                parsed.topic = None  # (the plain annotation is all the scorer keeps)
            lines.append(parsed)
    except OSError as error:
        raise InputError(f"{path}: {error.strerror or error}") from None
    try:
        scico.scico_report(file, lines)  # the checks across lines (repeated topic ids)
    except FormatErrors as error:
        raise InputError(str(error)) from None
    return topics


def _read(path: str, format: str) -> tuple[list[TopicData], int]:
    """Topics of one file, read by the project's reader, and how many links it dropped;
    errors become an :class:`InputError`."""
    try:
        report = read(format, path, skip_invalid=format == "chemu")
    except FormatErrors as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise InputError(f"{path}: {error.strerror or error}") from None
    whole_records = [skipped for skipped in report.skipped if skipped.scope == "record"]
    if whole_records:
        errors = [error for skipped in whole_records for error in skipped.errors]
        raise InputError(
            "\n".join([f"{len(errors)} error(s) in the input:", *(f"  {e}" for e in errors)])
        )
    # The reader keeps a link with an empty side as released (held, no link): not scored.
    empty = sum(len(held_entries(topic, "empty")) for topic in report.topics)
    return report.topics, len(report.skipped) + empty
