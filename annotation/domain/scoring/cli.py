"""``python -m annotation.domain.scoring score|iaa``: the stand-alone scorer's command line.

    score GOLD SYSTEM --format scico|chemu [--keep-singletons] [--hierarchy-count closure|raw] [--json]
    iaa FILE1 FILE2 [FILE...] --format scico|chemu [--json] [--csv OUT] [--names a,b,...]

Files are read with the project's readers (``annotation.domain.formats``); an invalid file
is reported as they report it (file, line, field) and the command exits with status 1.
ChEMU-Ref links with an empty side are not scored (metrics.md): they are dropped, and
their count is said on stderr. Imports are deferred so that start-up stays short.

Speed (bench/scoring): SciCo lines are read by ``scico_lines`` (simdjson; only what the
scores need becomes Python objects, the tokens are counted, not decoded), and a line with any
problem by the importer's own code, so errors are the importer's: the per-line results are
put together in file order (with the importer's ``scico.scico_report`` as soon as a line has a
problem). Nothing on the SciCo path imports numpy (~0.1 s here).
"""

from __future__ import annotations

import argparse
import os
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
    # (prog given: left out, argparse computes it with a help formatter, importing shutil)
    commands = parser.add_subparsers(dest="command", required=True, prog=parser.prog)
    score = commands.add_parser("score", help="score a system file against a gold file")
    score.add_argument("gold")
    score.add_argument("system")
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
        sys.stdout.write(_json_text(result, large=args.command == "iaa") + "\n")
    else:
        from annotation.domain.scoring import tables

        sys.stdout.write(tables.render(args.command, args.format, result))
    return 0


def _json_text(result: dict, large: bool = True) -> str:
    """``json.dumps(result, indent=2)``; for a ``large`` result written by orjson (25 ms less
    for an IAA of 200 topics; for the 1 KB of ``score`` importing it would cost more) when
    that gives the same text: ASCII strings, and finite floats that are 0 or at least 1e-4
    in size (smaller ones orjson writes as ``1e-5`` where json writes ``1e-05``)."""
    if large and _orjson_writes_as_json(result):
        try:
            import orjson

            return orjson.dumps(result, option=orjson.OPT_INDENT_2).decode()
        except (ImportError, TypeError):
            pass
    import json

    return json.dumps(result, indent=2)


def _orjson_writes_as_json(value) -> bool:
    kind = type(value)
    if kind is dict:
        return all(type(key) is str and key.isascii() for key in value) and all(
            map(_orjson_writes_as_json, value.values())
        )
    if kind is list or kind is tuple:
        return all(map(_orjson_writes_as_json, value))
    if kind is float:
        return value == 0 or 1e-4 <= abs(value) < 1e16
    if kind is str:
        return value.isascii()
    return value is None or kind is int or kind is bool


def _score(args: argparse.Namespace) -> dict:
    gold, system = _read_all([args.gold, args.system], args.format)
    from annotation.domain.scoring import api

    try:
        if args.format == "scico":
            return api.score_scico(
                gold,
                system,
                keep_singletons=args.keep_singletons,
                hierarchy_count=args.hierarchy_count,
            )
        return api.score_chemu(gold, system)
    except api.ScoringInputError as error:
        raise InputError(f"cannot score {args.gold} against {args.system}: {error}") from None


def _iaa(args: argparse.Namespace) -> dict:
    if len(args.files) < 2:
        raise InputError("iaa needs at least two files (one per annotator)")
    names = [name.strip() for name in args.names.split(",")] if args.names else None
    if names is not None and len(names) != len(args.files):
        raise InputError(f"--names gives {len(names)} names for {len(args.files)} files")
    annotators = _read_all(args.files, args.format)
    from annotation.domain.scoring import api

    try:
        result = api.iaa(
            annotators,
            scheme=args.format,
            names=names,
            keep_singletons=args.keep_singletons,
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
    """Each file's topics, as the scorers' plain :class:`TopicAnnotation`; the first file (in
    the order given) with a problem raises :class:`InputError`. Messages are printed in file
    order."""
    if format == "scico":
        return _read_scico(paths)
    outcomes = [_read_outcome(path, format) for path in paths]
    topics = []
    for path, (error, result, dropped) in zip(paths, outcomes):
        if error:
            raise InputError(error)
        if dropped:
            print(f"{path}: {dropped} link(s) with an empty side are not scored", file=sys.stderr)
        topics.append(result)
    return topics


def _read_scico(paths: Sequence[str]) -> list[list]:
    """SciCo files, line by line, read by ``scico_lines`` (simdjson, only what the scores
    need; the importer's own code for a line with any problem)."""
    from annotation.domain.formats import _lines
    from annotation.domain.scoring import scico_lines

    contents: list[bytes | None] = []
    unreadable: list[str | None] = []
    jobs: list[tuple[int, int, object]] = []
    for index, path in enumerate(paths):
        try:
            data = _lines.map_file(path)
        except OSError as error:
            contents.append(None)
            unreadable.append(f"{path}: {error.strerror or error}")
            continue
        contents.append(data)
        unreadable.append(None)
        spans = _lines.line_spans(data)
        if spans is None:  # carriage returns: lines as text mode splits them
            try:
                jobs += [(index, number, text) for number, text in _lines.jsonl_lines(data, None)]
            except UnicodeDecodeError as error:
                unreadable[index] = f"{path}: not UTF-8 text ({error.reason})"
        else:
            jobs += [(index, number, (start, end)) for number, start, end in spans]
    names = [os.path.basename(path) for path in paths]  # (what display_name gives for a path)

    def parse(job: tuple[int, int, object]):
        index, number, where = job
        try:
            line = _lines.line_at(contents[index], *where) if isinstance(where, tuple) else where
            if line is None:
                return None
            return scico_lines.plain_line(line, number, names[index])
        except UnicodeDecodeError as error:  # (reading the file as text would fail there)
            return f"{paths[index]}: line {number}: not UTF-8 text ({error.reason})"

    lines = [parse(job) for job in jobs]
    by_file: list[list] = [[] for _ in paths]
    for (index, _, _), line in zip(jobs, lines):
        if line is not None:
            by_file[index].append(line)
    topics = []
    for index, path in enumerate(paths):
        if unreadable[index]:
            raise InputError(unreadable[index])
        undecodable = next((line for line in by_file[index] if isinstance(line, str)), None)
        if undecodable:
            raise InputError(undecodable)
        topics.append(_file_topics(path, names[index], by_file[index]))
    return topics


def _file_topics(path: str, name: str, lines: list[tuple]) -> list:
    """The plain topics of a file from what ``scico_lines.plain_line`` gave for its lines, in
    file order: ``(number, topic id, annotation)`` for a valid line, ``(ScicoLine, conversion
    error)`` for a line read by the importer's code. When every line is valid and no topic id
    repeats, the topics; else the importer's report of the file decides (``scico_report``:
    its messages, its duplicate-id check), then the first conversion error."""
    seen: set[str] = set()
    for line in lines:
        if len(line) != 3 or line[1] in seen:
            break
        seen.add(line[1])
    else:
        return [annotation for _, _, annotation in lines]
    from annotation.domain.formats import FormatErrors, scico

    parsed = [
        scico.ScicoLine(line[0], line[1], line[2], [], []) if len(line) == 3 else line[0]
        for line in lines
    ]
    try:
        report = scico.scico_report(name, parsed)
    except FormatErrors as error:
        raise InputError(str(error)) from None
    conversion = next((line[1] for line in lines if len(line) == 2 and line[1]), None)
    if conversion:
        raise InputError(f"cannot score {path}: {conversion}")
    return report.topics


def _read_outcome(path: str, format: str) -> tuple[str | None, list, int]:
    """(error message or None, topics, number of dropped links)."""
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
        raise InputError(
            "\n".join([f"{len(errors)} error(s) in the input:", *(f"  {e}" for e in errors)])
        )
    return report.topics, len(report.skipped)
