"""Surface cues for "the child's label is a kind of the parent's label".

English noun phrases put the head last and the modifiers before it, so a phrase that ends with
another phrase usually names a kind of it: *neural machine translation* -> *machine
translation* -> *translation*, *CRF tagger* -> *tagger*, *multimodal sentiment analysis* ->
*sentiment analysis*. The same text at the front names something else (*sentiment analysis
data sets* is a data set, not a kind of sentiment analysis), so only suffixes count. This is
the head-matching cue of taxonomy induction; it needs no training and errs on the side of
precision.
"""

from __future__ import annotations

import re

from annotation.domain.heads import PREPOSITIONS as _PREPOSITIONS
from annotation.domain.heads import singular as _singular

# The same words as annotation/domain/heads.py's head lemma (prepositions, plural folding), so
# the minilm cue, the same-head-lemma baseline and WEC's statistics read a head alike.
_PUNCTUATION = re.compile(r"^\W+$")
_STEM_SUFFIXES = ("ations", "ation", "ings", "ing", "ers", "er", "ions", "ion", "es", "s")


def phrase_words(tokens: list[str]) -> tuple[str, ...]:
    """The head phrase of a mention: lower-cased words before any preposition, punctuation
    dropped, hyphenated words split, plurals folded."""
    words: list[str] = []
    for token in tokens:
        if token.lower() in _PREPOSITIONS and words:
            return tuple(words)
        for piece in re.split(r"[-_/]", token.lower()):
            if piece and not _PUNCTUATION.match(piece):
                words.append(_singular(piece))
    return tuple(words)


def acronym_pairs(texts: list[list[str]]) -> set[tuple[int, int]]:
    """Pairs (i, j), i < j, of mentions (given by their tokens) where one abbreviates the other:
    one is the other with a run of words written as their initials (*NER* / *named entity
    recognition*, *POS tagging* / *part-of-speech tagging*, *HMMs* / *hidden Markov models*).
    An acronym is a token of 2-6 letters, mostly upper-case.

    Only mentions holding an acronym are compared with the others, so a topic costs little.
    """
    words = [
        [w for t in tokens for w in re.split(r"[-_/]", t) if w and not _PUNCTUATION.match(w)]
        for tokens in texts
    ]
    lower = [[w.lower() for w in ws] for ws in words]
    pairs = set()
    for i, ws in enumerate(words):
        for index, word in enumerate(ws):
            letters = word[:-1] if word.endswith("s") and word[:-1].isupper() else word
            if not (
                2 <= len(letters) <= 6
                and letters.isalpha()
                and sum(c.isupper() for c in letters) >= len(letters) - 1
            ):
                continue
            before, after = lower[i][:index], lower[i][index + 1 :]
            for j, other in enumerate(lower):
                span = len(other) - len(before) - len(after)
                if (
                    j != i
                    and span >= 2
                    and other[: len(before)] == before
                    and other[len(other) - len(after) :] == after
                    and "".join(w[0] for w in other[len(before) : len(before) + span])
                    == letters.lower()
                ):
                    pairs.add((min(i, j), max(i, j)))
    return pairs


def head_stem(word: str) -> str:
    """A crude stem, enough to match *tagger* / *tagging* and *translation* / *translating*."""
    for suffix in _STEM_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def specificity_cue(parent: tuple[str, ...], child: tuple[str, ...]) -> float:
    """Evidence in [0, 1] that `child` names a kind of `parent`, from their words alone.

    - `parent` is a proper suffix of `child` (same head, extra modifiers): 0.5 + 0.5 * share
      of the child's words the parent covers, so the nearest ancestor beats a farther one
      (*neural machine translation* is closer to *machine translation* than to *translation*);
    - same head stem, `parent` shorter, not a suffix (*tagging* -> *CRF tagger*): half that;
    - otherwise 0.
    """
    if not parent or not child or len(parent) >= len(child):
        return 0.0
    closeness = 0.5 + 0.5 * len(parent) / len(child)
    if child[-len(parent) :] == parent:
        return closeness
    if head_stem(parent[-1]) == head_stem(child[-1]):
        return 0.5 * closeness
    return 0.0


def cluster_specificity(
    parent_phrases: set[tuple[str, ...]], child_phrases: set[tuple[str, ...]]
) -> float:
    """The strongest cue over the two clusters' distinct phrases; 0 if the reverse holds too.

    A cluster whose phrases point both ways (a noisy cluster holding both *translation* and
    *machine translation*) gives no direction, so no lexical evidence.
    """
    forward = max(
        (specificity_cue(p, c) for p in parent_phrases for c in child_phrases), default=0.0
    )
    if forward == 0.0:
        return 0.0
    backward = max(
        (specificity_cue(c, p) for p in parent_phrases for c in child_phrases), default=0.0
    )
    return forward if backward == 0.0 else 0.0
