"""What PostgreSQL cannot store, found in read topics before anything is written.

A reader accepts any JSON string, but PostgreSQL's text and jsonb refuse a NUL character
(U+0000) and a lone surrogate (half of a UTF-16 pair, e.g. "\\ud800", which JSON can spell),
and the id columns hold at most ID_LENGTH characters. Without this check such a file reached
the database and failed there, as a 500 in the middle of the import. The errors name the
topic and the field, like every other format error, so a skipping import skips that topic.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from corefscore.corpus import TopicData
from corefscore.formats.errors import FormatError, FormatErrors, ImportReport, Skipped

ID_LENGTH = 300  # Topic.external_id, Topic.source, Document.doc_id (annotation/models.py)


def unstorable(topic: TopicData, file: str) -> list[FormatError]:
    """Every reason `topic` cannot be stored, at most one per field."""
    record = f"topic {_shown(topic.external_id)}"
    errors: list[FormatError] = []

    def error(field: str, message: str) -> None:
        errors.append(FormatError(file, record, field, message))

    for field, value in (("id", topic.external_id), ("source", topic.source)):
        if len(value) > ID_LENGTH:
            error(field, f"is {len(value):,} characters long; at most {ID_LENGTH} are kept")
    for d, document in enumerate(topic.documents):
        if len(document.doc_id) > ID_LENGTH:
            error(
                f"documents[{d}].doc_id",
                f"is {len(document.doc_id):,} characters long; at most {ID_LENGTH} are kept",
            )
    for field, text in _strings(topic):
        problem = _text_problem(text)
        if problem:
            error(field, problem)
            if len(errors) >= 20:
                break  # enough to fix the file; the rest say the same
    return errors


def first_unstorable(field: str, value: Any) -> tuple[str, str] | None:
    """(where, what) for the first string in `value` (keys included) that PostgreSQL cannot
    store, or None; `where` is `field` with the path inside the value."""
    for where, text in _nested(field, value):
        problem = _text_problem(text)
        if problem:
            return where, problem
    return None


def _text_problem(text: str) -> str | None:
    if "\x00" in text:
        return "holds a NUL character (U+0000), which cannot be stored"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return (
            f"holds a lone surrogate ({text[error.start]!a}), half of a character that "
            "cannot be stored"
        )
    return None


def _strings(topic: TopicData) -> Iterator[tuple[str, str]]:
    """(field, string) for every string of the topic, dictionary keys included."""
    yield "id", topic.external_id
    yield "source", topic.source
    for d, document in enumerate(topic.documents):
        yield f"documents[{d}].doc_id", document.doc_id
        for t, token in enumerate(document.tokens):
            yield f"documents[{d}].tokens[{t}]", token
        yield from _nested(f"documents[{d}].metadata", document.metadata)
    for m, mention in enumerate(topic.mentions):
        if mention.cluster is not None:
            yield f"mentions[{m}].cluster", mention.cluster
        yield from _nested(f"mentions[{m}].metadata", mention.metadata)
    for c, cluster in enumerate(topic.clusters):
        yield f"clusters[{c}]", cluster.key
        yield f"clusters[{c}].label", cluster.label or ""
        yield f"clusters[{c}].note", cluster.note
    yield from _nested("metadata", topic.metadata)


def _nested(field: str, value: Any) -> Iterator[tuple[str, str]]:
    # An explicit stack: the metadata of a file is as deep as the file (readers cap that).
    stack = [(field, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            yield where, item
        elif isinstance(item, dict):
            for key, inner in item.items():
                if isinstance(key, str):
                    yield where, key
                stack.append((f"{where}[{_shown(str(key))}]", inner))
        elif isinstance(item, (list, tuple)):
            stack.extend((f"{where}[{i}]", inner) for i, inner in enumerate(item))


def _shown(external_id: str) -> str:
    shown = ascii(external_id[:60])
    return shown + ("..." if len(external_id) > 60 else "")


def storable_only(report: ImportReport, file: str, *, skip_invalid: bool) -> ImportReport:
    """The report without the topics that cannot be stored: raised as errors, or (skipping)
    each listed as skipped."""
    kept = []
    found: list[FormatError] = []
    for topic in report.topics:
        errors = unstorable(topic, file)
        if not errors:
            kept.append(topic)
            continue
        found += errors
        report.skipped.append(Skipped(file, errors[0].record, tuple(errors)))
    if found and not skip_invalid:
        raise FormatErrors(report.errors + found, report)
    report.topics = kept
    report.errors += found
    return report


def unreadable_json(error: Exception, file: str) -> FormatError | None:
    """The format error for what Python's JSON parser raises past the readers' own checks:
    nesting deeper than the interpreter's recursion limit, an integer of more digits than
    Python converts (4,300). None for anything else (a bug, to be seen as one)."""
    if isinstance(error, RecursionError):
        return FormatError(file, None, None, "holds JSON nested too deeply to read")
    if "integer string conversion" in str(error):
        return FormatError(file, None, None, "holds a number too long to read (over 4,300 digits)")
    return None
