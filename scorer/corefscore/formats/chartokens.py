"""Characters -> tokens for plain-text formats (brat), with every annotation boundary kept.

Tokens are runs of non-space characters, cut at every given boundary (annotation offsets),
with unbalanced brackets and trailing punctuation peeled off: ``(25.00`` -> ``(`` ``25.00``,
``mmol)`` -> ``mmol`` ``)``, ``C.`` -> ``C`` ``.``, while ``(R)-3-aminoquinuclidine`` and
``eq.`` stay whole. The rule only looks inside a token, so tokenising tokens joined by
spaces gives the same tokens back: text -> tokens -> text -> tokens is stable, and
ChEMU-Ref's own tokens survive it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable

OPENERS, CLOSERS = "([{", ")]}"
TRAILING = ".,;:!?"
# Abbreviations whose final period belongs to them (as ChEMU-Ref tokenises them).
ABBREVIATIONS = frozenset(
    {
        "eq",
        "sat",
        "equiv",
        "aq",
        "fig",
        "vol",
        "dil",
        "conc",
        "ca",
        "al",
        "approx",
        "m.p",
        "b.p",
        "e.g",
        "i.e",
        "etc",
        "cf",
        "vs",
        "no",
        "ref",
        "figs",
        "temp",
        "min",
        "max",
        "anhyd",
        "soln",
    }
)
_NON_SPACE = re.compile(r"\S+")


def tokenize(text: str, boundaries: Iterable[int] = ()) -> list[tuple[int, int]]:
    """Character ranges ``[start, end)`` of the tokens of ``text``, cut at ``boundaries``."""
    cuts = sorted(set(boundaries))
    ranges: list[tuple[int, int]] = []
    for match in _NON_SPACE.finditer(text):
        start, end = match.span()
        inner = list(_between(cuts, start, end))
        for piece_start, piece_end in zip([start, *inner], [*inner, end], strict=True):
            ranges.extend(_peel(text, piece_start, piece_end))
    return ranges


def _between(cuts: list[int], start: int, end: int) -> Iterable[int]:
    for cut in cuts[bisect_right(cuts, start) :]:
        if cut >= end:
            break
        yield cut


def _peel(text: str, start: int, end: int) -> list[tuple[int, int]]:
    left: list[tuple[int, int]] = []
    right: list[tuple[int, int]] = []
    while end - start > 1:
        piece = text[start:end]
        first, last = piece[0], piece[-1]
        if first in OPENERS and piece.count(first) > piece.count(CLOSERS[OPENERS.index(first)]):
            left.append((start, start + 1))
            start += 1
        elif (
            last in CLOSERS
            and piece.count(last) > piece.count(OPENERS[CLOSERS.index(last)])
            or last in TRAILING
            and not (last == "." and piece[:-1].lower() in ABBREVIATIONS)
        ):
            right.insert(0, (end - 1, end))
            end -= 1
        else:
            break
    return [*left, (start, end), *right]
