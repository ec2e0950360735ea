"""Mention detection: exact and relaxed (overlap) P/R/F1 over every mention, singletons included.

Realistic evaluation (Cattan et al. 2021, seed 003) scores mention detection apart from
linking. Mentions are keys ``(document index, spans)`` with inclusive ``(start, end)`` token
spans; a discontinuous mention has several spans.

- **exact**: TP = number of mentions with identical keys on both sides.
- **relaxed**: two mentions match when they are in the same document and share a token
  (BRATEval's overlap match, ChEMU 2021 section 5.1); TP = size of a maximum bipartite
  matching, so one response mention never counts for two key mentions (FP = #response - TP,
  FN = #key - TP, as the ChEMU overview defines it for relaxed relations).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

from corefscore.metrics.counts import Counts
from corefscore.metrics.matching import maximum_matching_size

MentionKey = tuple[int, tuple[tuple[int, int], ...]]
Item = TypeVar("Item", bound=Hashable)


def mention_tokens(mention: MentionKey) -> list[tuple[int, int]]:
    """``(document, token)`` for every token the mention covers."""
    document, spans = mention
    return [(document, token) for start, end in spans for token in range(start, end + 1)]


def mentions_overlap(first: MentionKey, second: MentionKey) -> bool:
    """Same document and at least one shared token (spans are inclusive)."""
    if first[0] != second[0]:
        return False
    return any(a <= d and c <= b for a, b in first[1] for c, d in second[1])


class OverlapIndex:
    """Finds, for a mention, the indexed mentions it overlaps (token -> mentions lookup)."""

    def __init__(self, mentions: Sequence[MentionKey]) -> None:
        self.mentions = mentions
        self._by_token: dict[tuple[int, int], list[int]] = {}
        for index, mention in enumerate(mentions):
            for token in mention_tokens(mention):
                self._by_token.setdefault(token, []).append(index)

    def overlapping(self, mention: MentionKey) -> list[int]:
        """Indices of overlapping mentions, an identical mention first (it is the likely match)."""
        found: dict[int, None] = {}
        for token in mention_tokens(mention):
            for index in self._by_token.get(token, ()):
                found[index] = None
        return sorted(found, key=lambda index: self.mentions[index] != mention)


def distinct(mentions: Iterable[Item]) -> list[Item]:
    """Mentions in first-seen order without repeats."""
    return list(dict.fromkeys(mentions))


def mention_detection_counts(
    key: Iterable[MentionKey], response: Iterable[MentionKey], *, relaxed: bool = False
) -> Counts:
    """Counts for one topic; a repeated mention counts once on each side."""
    key_mentions = distinct(key)
    response_mentions = distinct(response)
    tp = len(set(key_mentions).intersection(response_mentions))
    if relaxed and tp < min(len(key_mentions), len(response_mentions)):
        # (when every mention of the smaller side is matched exactly, no matching is larger)
        tp = relaxed_matches(key_mentions, response_mentions)
    return Counts.from_tp(tp, len(key_mentions), len(response_mentions))


def relaxed_matches(key: Sequence[MentionKey], response: Sequence[MentionKey]) -> int:
    """Size of a maximum matching between overlapping key and response mentions."""
    index = OverlapIndex(response)
    adjacency = [index.overlapping(mention) for mention in key]
    return maximum_matching_size(adjacency, len(response))
