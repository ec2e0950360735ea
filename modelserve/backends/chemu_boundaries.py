"""Mention boundaries corrected between the two steps (docs/mentions.md), as the ChEMU 2021 winner
did: a found mention whose brackets do not balance is extended to the bracket that does.

Why brackets: in ChEMU-Ref train 15 of 13,263 continuous gold mentions leave a bracket open
and 9 close one they did not open, but the tagger's boundary errors on held-out snippets
include "silica gel ( 40 g" (gold: "... , 0-100% EtOAc in hexanes )"), "a mixed solution of
acetic acid and hexane ( 1 : 9" and chemical names cut inside their own brackets
("N-((2,4-dichloropyrimidin-5-yl)" of "N-((2,4-dichloropyrimidin-5-yl) methyl)-2-methyl-...").
Brackets are counted by character, so a name split into several tokens counts too.
Determiners are not trimmed: ChEMU-Ref mentions include them ("the", "a": 40 % of first words).

- `correct(tokens, mentions)`: the (spans, score) list of one document with each continuous
  mention's open bracket closed by extending its end (or its unopened closing bracket opened by
  extending its start), at most `REACH` words and never over a sentence's full stop; a
  mention that cannot be balanced within that is left as it was. Where two mentions become
  one span, the higher score is kept. Discontinuous mentions are left as they are.

Pure: no Django. Held-out figures: docs/mentions.md ("Raw text: the levers").
"""

from __future__ import annotations

from modelserve.backends.biohd import Spans

OPENING, CLOSING = "([{", ")]}"
REACH = 30  # words a boundary may move: a bracket's quantities ("( 1.3 g , 6.28 mmol )")
STOP = "."  # a sentence's end, which no mention crosses


def depth(words: list[str]) -> tuple[int, int]:
    """(open brackets left at the end, the lowest depth reached: < 0 = unopened ones)."""
    level = lowest = 0
    for word in words:
        for char in word:
            if char in OPENING:
                level += 1
            elif char in CLOSING:
                level -= 1
                lowest = min(lowest, level)
    return level, lowest


def balanced_span(tokens: list[str], start: int, end: int) -> tuple[int, int]:
    """The (start, end) of a continuous mention, its brackets balanced where that is near."""
    level, lowest = depth(tokens[start : end + 1])
    if lowest < 0:  # a closing bracket it did not open: reach back for its opening one
        for first in range(start - 1, max(-1, start - 1 - REACH), -1):
            if tokens[first] == STOP:
                break
            if depth(tokens[first : end + 1])[1] >= 0:
                start = first
                level = depth(tokens[start : end + 1])[0]
                break
        else:
            return start, end
    if level > 0:  # an open bracket: reach forward for its closing one
        for last in range(end + 1, min(len(tokens), end + 1 + REACH)):
            if tokens[last] == STOP:
                break
            if depth(tokens[start : last + 1]) == (0, 0):
                return start, last
    return start, end


def correct(tokens: list[str], mentions: list[tuple[Spans, float]]) -> list[tuple[Spans, float]]:
    """The document's found mentions with their brackets balanced (see the module's doc)."""
    corrected: dict[Spans, float] = {}
    for spans, score in mentions:
        if len(spans) == 1:
            spans = (balanced_span(tokens, *spans[0]),)
        corrected[spans] = max(score, corrected.get(spans, 0.0))
    return sorted(corrected.items(), key=lambda item: (item[0][0][0], item[0]))
