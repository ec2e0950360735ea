"""A whole corpus file checked before anything is written: every line's problems, duplicate
document ids, and a file of another format named as such (from its first record)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from corefscore.formats import FormatErrors
from corefscore.formats.guess import HEAD_BYTES, guess_format
from corpus.reading.formats import LINE_FORMATS, records
from corpus.reading.lines import LineProblems

MAX_LISTED = 200


@dataclass
class CheckReport:
    documents: int = 0
    mentions: int = 0
    errors: list[str] = field(default_factory=list)
    # every error counted, though only MAX_LISTED are kept
    error_count: int = 0
    # doc_id -> digest: what the write pass compares with the corpus's documents
    digests: dict[str, str] = field(default_factory=dict)

    def error(self, message: str) -> None:
        self.error_count += 1
        if len(self.errors) < MAX_LISTED:
            self.errors.append(message)

    @property
    def ok(self) -> bool:
        return self.error_count == 0

    def summary(self) -> str:
        more = f" (the first {MAX_LISTED} listed)" if self.error_count > MAX_LISTED else ""
        return f"{self.error_count} problem(s) in the file{more}; nothing was imported"


def check(format: str, path: str | Path, *, name: str = "") -> CheckReport:
    report = CheckReport()
    shown = name or Path(path).name
    first_ids: dict[str, int | str] = {}
    try:
        for where, found in records(format, path):
            place = f"line {where}" if isinstance(where, int) else str(where)
            if isinstance(found, LineProblems):
                if report.documents == 0 and report.error_count == 0 and format in LINE_FORMATS:
                    wrong = _wrong_format(format, path, shown, found)
                    if wrong:
                        report.error(wrong)
                        return report
                for problem in found.problems:
                    report.error(f"{shown}: {place}: {problem}")
                continue
            if found.doc_id in first_ids:
                first = first_ids[found.doc_id]
                report.error(
                    f"{shown}: {place}: document id '{found.doc_id}' is used twice "
                    f"(first at {'line ' if isinstance(first, int) else ''}{first})"
                )
                continue
            first_ids[found.doc_id] = where
            report.digests[found.doc_id] = found.digest()
            report.documents += 1
            report.mentions += len(found.mentions)
    except FormatErrors as errors:
        for error in errors.errors:
            report.error(str(error))
    if report.ok and report.documents == 0:
        report.error(f"{shown}: the file holds no documents")
    return report


def _wrong_format(format: str, path: str | Path, shown: str, found: LineProblems) -> str:
    """The first record is not of `format` at all: one message naming what it looks like,
    rather than the same complaint for every line."""
    if not any(p.startswith(("is not a", "has no predicted_ner")) for p in found.problems):
        return ""
    with open(path, "rb") as stream:
        head = stream.read(HEAD_BYTES)
    if b'"predicted_ner"' in head or b'"doc_key"' in head and format != "dygiepp":
        looks = "DyGIE++ predictions (dygiepp)"
    elif b'"id"' in head and b'"sentences"' in head and format != "corpus-jsonl":
        looks = "corpus JSON lines (corpus-jsonl)"
    else:
        guess = guess_format(head, shown)
        looks = str(guess) if guess else "no format this server reads"
    return (
        f"{shown} is not a {format} file: its first document {found.problems[0]}; "
        f"it looks like {looks}. Choose that format, or check the file."
    )
