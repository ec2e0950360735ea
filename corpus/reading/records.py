"""What every corpus format reads into: a document with its tokens, sentences and mentions."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class MentionRecord:
    # document-level token offsets, both ends inclusive
    start: int
    end: int
    label: str = ""
    score: float | None = None
    # a discontinuous mention's spans; None for the one span start..end
    spans: tuple[tuple[int, int], ...] | None = None


@dataclass
class DocumentRecord:
    doc_id: str
    tokens: list[str]
    # half-open token ranges [start, end)
    sentences: list[tuple[int, int]]
    mentions: list[MentionRecord]
    metadata: dict[str, Any] = field(default_factory=dict)
    # the 1-based line (or record) it was read from
    line: int | str | None = None

    def digest(self) -> str:
        """What a second import of the same document compares: its words, sentences and
        mentions (not where in the file it was)."""
        content = [
            self.tokens,
            [list(s) for s in self.sentences],
            [[m.start, m.end, m.label, m.score, m.spans] for m in self.mentions],
        ]
        return hashlib.sha256(json.dumps(content, ensure_ascii=False).encode()).hexdigest()

    def surface(self, mention: MentionRecord) -> str:
        spans = mention.spans or ((mention.start, mention.end),)
        return " ".join(" ".join(self.tokens[s : e + 1]) for s, e in spans)
