"""Files read for scoring, as the command line reads them: the topics of a SciCo or ChEMU-Ref
file reduced to the scorers' plain :class:`TopicAnnotation`, with the readers' messages.

``python -m corefscore score|iaa`` and the library's :func:`corefscore.score` /
:func:`corefscore.iaa` both read through here, so a file is scored the same way from either.
ChEMU-Ref links with an empty side are not scored (metrics.md): the reader holds them (no link)
and :func:`read_topics` says how many through ``note``. SciCo files are read by the importer's
reader, without the checks the scores do not depend on (:func:`_read_scico`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from corefscore.corpus import TopicData
from corefscore.formats import FormatErrors, read, scico
from corefscore.formats.chemu import held_entries
from corefscore.formats.scico_parser import FORMAT as SCICO
from corefscore.scoring.plain import ScoringInputError, TopicAnnotation, from_topic

SCHEMES = ("scico", "chemu")
PathLike = str | os.PathLike[str]


class InputError(ValueError):
    """A file could not be read or scored; the message is what the user sees (file, line,
    field)."""


def read_topics(
    path: PathLike,
    format: str,
    *,
    flags: dict[str, Any] | None = None,
    field: str | None = None,
    note: Callable[[str], None] | None = None,
) -> list[TopicAnnotation]:
    """One file's topics in ``format`` (scico or chemu); with ``flags``, topic id -> the value
    of its SciCo ``field`` too. ``note`` is told what is read but not scored."""
    if format not in SCHEMES:
        raise ValueError(f"format must be one of {', '.join(SCHEMES)}, not {format!r}")
    path = os.fspath(path)
    try:
        if format == "scico":
            return _read_scico(path, flags, field)
        topics, dropped = _read(path, format)
        if dropped and note is not None:
            note(f"{path}: {dropped} link(s) with an empty side are not scored")
        return [from_topic(topic) for topic in topics]
    except ScoringInputError as error:
        raise InputError(f"cannot score {path}: {error}") from None


def topic_ids(path: PathLike) -> list[str]:
    """The topic ids a file lists, one a line (``--topics FILE``)."""
    try:
        with open(path, encoding="utf-8") as stream:
            return [line.strip() for line in stream if line.strip()]
    except OSError as error:
        raise InputError(f"{os.fspath(path)}: {error.strerror or error}") from None


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
