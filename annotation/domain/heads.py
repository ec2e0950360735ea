"""The head lemma of a mention, for WEC's Ambiguity and Diversity (datasets/statistics.py) and
WEC's same-head-lemma baseline (modelserve/backends/same_head_lemma.py).

WEC took heads from a dependency parser and lemmatised them; no parser or lemmatiser is
installed here, and the statistics must not need the model code (the core imports nothing of
modelserve). English noun phrases are head-final, so the head is the last word of the mention
before its first preposition ("CRFs for sequence labeling" -> "CRFs"), with punctuation
dropped and hyphenated words split; the lemma is that word lower-cased with a regular plural
folded ("models" -> "model"; "analysis", "class", "status" stay). The same rule as the lexical
cues of the `minilm` backend (modelserve/backends/lexical.py: phrase_words), written here once
for both users of a head lemma, so the baseline and the statistics cannot drift apart.

Where it errs, against a parser: event nominals with a post-modifier that is not a
preposition ("the war that followed"), verbal heads in event mentions ("was killed" -> "killed"
here, "kill" for a lemmatiser), irregular plurals. docs/datasets.md says how this moves WEC's
figures.
"""

from __future__ import annotations

import re

_PUNCTUATION = re.compile(r"^\W+$")
# A post-modifier starts here: the head of "CRFs for sequence labeling" is "CRFs".
PREPOSITIONS = frozenset(
    [
        "for",
        "of",
        "in",
        "on",
        "with",
        "from",
        "to",
        "by",
        "using",
        "via",
        "over",
        "under",
        "at",
        "as",
        "into",
        "through",
    ]
)


def singular(word: str) -> str:
    """A regular English plural folded: "models" -> "model"; "ss", "us", "is" endings kept."""
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def head_lemma(words: list[str]) -> str | None:
    """The lemma of the head of a mention given by its words; None when no word is left
    (a mention of punctuation only)."""
    head: str | None = None
    for token in words:
        if token.lower() in PREPOSITIONS and head is not None:
            break
        for piece in re.split(r"[-_/]", token.lower()):
            if piece and not _PUNCTUATION.match(piece):
                head = singular(piece)
    return head
