"""The formats a corpus is read from: our JSON lines, DyGIE++'s predictions, and every format
the scorer's readers read (SciCo jsonl, CoRefi, ChEMU-Ref, brat, ...): each of their topics'
documents becomes a corpus document, its mentions without their clusters."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from corefscore.corpus import TopicData
from corefscore.formats import READERS, FormatErrors, read
from corefscore.formats._lines import file_lines
from corpus.reading.lines import LineProblems, corpus_line, decode, dygiepp_line
from corpus.reading.records import DocumentRecord, MentionRecord

LINE_FORMATS: dict[str, Callable[[Any, int], DocumentRecord]] = {
    "corpus-jsonl": corpus_line,
    "dygiepp": dygiepp_line,
}
CORPUS_FORMATS: dict[str, str] = {
    "corpus-jsonl": "corpus JSON lines (one document a line)",
    "dygiepp": "DyGIE++ predictions (sentences, predicted_ner)",
    **{name: f"{name} (the documents of its topics)" for name in READERS},
}

# What `records` yields: a record's line (or topic/document) and the document or its problems.
Read = tuple[int | str, DocumentRecord | LineProblems]


def records(format: str, path: str | Path) -> Iterator[Read]:
    """Every document of the file, in order, or what is wrong with it; a topic format that
    does not parse at all raises FormatErrors (every error of the scorer's reader)."""
    if format in LINE_FORMATS:
        parse = LINE_FORMATS[format]
        for number, line in file_lines(path):
            try:
                yield number, parse(decode(line), number)
            except LineProblems as problems:
                yield number, problems
        return
    if format not in READERS:
        raise ValueError(f"unknown corpus format {format!r}")
    for topic in read(format, path).topics:
        yield from _topic_documents(topic)


def _topic_documents(topic: TopicData) -> Iterator[Read]:
    mentions: dict[int, list[MentionRecord]] = {}
    for mention in topic.mentions:
        spans = tuple((int(s), int(e)) for s, e in mention.spans)
        label = next(
            (v for k in ("label", "type") if isinstance(v := mention.metadata.get(k), str)), ""
        )
        mentions.setdefault(mention.document, []).append(
            MentionRecord(
                spans[0][0], spans[-1][1], label[:100], None, spans if len(spans) > 1 else None
            )
        )
    for index, document in enumerate(topic.documents):
        where = f"topic {topic.external_id}, document {document.doc_id}"
        sentences = [(int(s), int(e)) for s, e in document.sentences] or [(0, len(document.tokens))]
        found = list({(m.start, m.end, m.label): m for m in mentions.get(index, [])}.values())
        if not document.tokens:
            yield where, LineProblems(["the document has no words"])
            continue
        yield (
            where,
            DocumentRecord(
                f"{topic.external_id}/{index}",
                list(document.tokens),
                sentences,
                found,
                {"topic": topic.external_id, "doc_id": document.doc_id},
                where,
            ),
        )


__all__ = ["CORPUS_FORMATS", "LINE_FORMATS", "FormatErrors", "Read", "records"]
