"""What a reader found wrong with a file, and what it returns.

Every problem names the file, the record (a 1-based line number for line formats, a
record index or an id such as ``T12`` for brat, a JSON path such as ``mentions[3]`` for
CoRefi) and the field, so that a user can go straight to the fault.

Readers collect problems instead of stopping at the first one. Without ``skip_invalid`` a
reader raises :class:`FormatErrors` carrying *every* error it found; with it, each bad
record (or, where a format says so, each bad item inside a record) is left out and listed
in :attr:`ImportReport.skipped` with its errors, and the rest is returned.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from corefscore.corpus import TopicData

Record = int | str | None


@dataclass(frozen=True)
class FormatError:
    """One problem in an input file: where it is and what is wrong."""

    file: str
    record: Record
    field: str | None
    message: str

    def __str__(self) -> str:
        where = []
        if self.record is not None:
            where.append(
                f"line {self.record}" if isinstance(self.record, int) else str(self.record)
            )
        if self.field:
            where.append(f"field {self.field}")
        return ": ".join([self.file, *([", ".join(where)] if where else []), self.message])


@dataclass(frozen=True)
class FormatWarning(FormatError):
    """Something a reader accepted but a user should know about (same shape as an error)."""


@dataclass(frozen=True)
class Skipped:
    """What a reader left out under ``skip_invalid``, and why.

    ``scope`` is ``"record"`` when the whole record was dropped, or names the item that was
    dropped inside a record that was otherwise kept (e.g. ``"link Coreference[3]"``).
    """

    file: str
    record: Record
    errors: tuple[FormatError, ...]
    scope: str = "record"

    def __str__(self) -> str:
        where = (
            f"line {self.record}: "
            if isinstance(self.record, int)
            else f"{self.record}: "
            if self.record
            else ""
        )
        what = "skipped" if self.scope == "record" else f"skipped {self.scope}"
        return f"{self.file}: {where}{what} ({len(self.errors)} error(s))"


@dataclass
class ImportReport:
    """What a reader returns: the topics it read, and what it found on the way.

    ``errors`` lists every error found. A report that comes back from a reader (rather than
    being raised inside :class:`FormatErrors`) has each of its errors covered by an entry of
    ``skipped``: the caller chose to skip invalid input and may go on.
    """

    topics: list[TopicData] = field(default_factory=list)
    errors: list[FormatError] = field(default_factory=list)
    warnings: list[FormatWarning] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    def extend(self, other: ImportReport) -> None:
        self.topics.extend(other.topics)
        self.errors.extend(other.errors)
        self.warnings.extend(other.warnings)
        self.skipped.extend(other.skipped)


class FormatErrors(ValueError):
    """Raised by a reader (without ``skip_invalid``) that found errors; carries all of them."""

    MAX_LISTED = 200

    def __init__(self, errors: list[FormatError], report: ImportReport | None = None):
        self.errors = list(errors)
        self.report = report
        super().__init__(self._message())

    def _message(self) -> str:
        lines = [f"{len(self.errors)} error(s) in the input:"]
        lines += [f"  {error}" for error in self.errors[: self.MAX_LISTED]]
        if len(self.errors) > self.MAX_LISTED:
            lines.append(f"  ... and {len(self.errors) - self.MAX_LISTED} more")
        return "\n".join(lines)


class Problems:
    """Collects the errors and warnings of one file while a reader walks it."""

    def __init__(self, file: str):
        self.file = file
        self.errors: list[FormatError] = []
        self.warnings: list[FormatWarning] = []

    def error(self, record: Record, field: str | None, message: str) -> FormatError:
        error = FormatError(self.file, record, field, message)
        self.errors.append(error)
        return error

    def warn(self, record: Record, field: str | None, message: str) -> None:
        self.warnings.append(FormatWarning(self.file, record, field, message))
