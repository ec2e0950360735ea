"""Read a file in one format and write it in another: ``python -m corefscore convert`` and
:func:`corefscore.convert`.

Any format of ``FORMATS`` with a reader can be converted to any with a writer. A pair that
cannot be done (a format only written, such as CoNLL-2012, or only read, such as Label
Studio) is refused before anything is read, with the lists of what can be read and written.
The whole input is read and checked before anything is written, so an invalid file leaves no
half-written output.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from corefscore.formats import FORMATS, READERS, WRITERS, read, write
from corefscore.formats.errors import FormatWarning, Skipped

PathLike = str | os.PathLike[str]


class UnsupportedConversion(ValueError):
    """The formats named cannot be converted; the message says why and what can be."""


class UnwritableTarget(ValueError):
    """The target format cannot hold these topics at that path (the writer's refusal, e.g. a
    CoRefi ``.json`` file holds one topic: give a folder)."""


@dataclass(frozen=True)
class Converted:
    """What a conversion did: how many topics were written, and what the user should know."""

    topics: int
    # The reader's warnings, then the writer's (what the target format cannot hold).
    warnings: list[FormatWarning] = field(default_factory=list)
    # What the reader left out (only with ``skip_invalid``).
    skipped: list[Skipped] = field(default_factory=list)


def check_pair(from_format: str, to_format: str) -> None:
    """Raise :class:`UnsupportedConversion` unless ``from_format`` is read and ``to_format``
    is written."""
    problems = []
    for name, side, able, verb in (
        (from_format, "read", READERS, "written"),
        (to_format, "written", WRITERS, "read"),
    ):
        if name not in FORMATS:
            problems.append(f"unknown format {name!r}")
        elif name not in able:
            problems.append(f"{name} ({FORMATS[name].label}) cannot be {side}, only {verb}")
    if problems:
        raise UnsupportedConversion(
            "; ".join(problems)
            + f". Formats read: {', '.join(READERS)}. Formats written: {', '.join(WRITERS)}."
        )


def convert(
    source: PathLike,
    target: PathLike,
    *,
    from_format: str,
    to_format: str,
    skip_invalid: bool = False,
) -> Converted:
    """Read ``source`` in ``from_format`` and write its topics to ``target`` in ``to_format``
    (a file, or a folder for the folder formats: brat, corefi with several topics,
    webanno-tsv, uima-xmi).

    Raises :class:`UnsupportedConversion` for a pair that cannot be done,
    :class:`~corefscore.formats.FormatErrors` (every error, with file, record and field) for
    an invalid input unless ``skip_invalid`` leaves the bad records out, ``OSError`` for a file
    that cannot be opened or written, and :class:`UnwritableTarget` for topics the target cannot
    hold at that path (a CoRefi ``.json`` file holds one topic)."""
    check_pair(from_format, to_format)
    report = read(from_format, source, skip_invalid=skip_invalid)
    try:
        warnings = write(to_format, report.topics, target)
    except ValueError as error:
        raise UnwritableTarget(str(error)) from error
    return Converted(len(report.topics), [*report.warnings, *warnings], list(report.skipped))
