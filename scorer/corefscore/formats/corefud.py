"""CorefUD 1.x: CoNLL-U with coreference in the MISC column (``Entity=``, ``Bridge=``,
``SplitAnte=``), read and written.

Our own parser rather than ``udapi``: the bracket notation is small (below), while udapi
builds a full tree object per sentence and re-serialises MISC in its own order, and mapping
TopicData back through its object model is more code than the notation itself; what we need
here is a byte-exact round trip of everything we do not interpret, which this keeps.

Mapping (decisions in docs/formats.md):
- Each ``# newdoc`` document is a topic (id = its ``newdoc id``, else ``<file>-<n>``) with
  one DocumentData whose tokens are the words (integer ids); sentences are kept as token
  ranges. Every comment line, every multiword-token and empty-node row and every MISC
  attribute but ``Entity``/``Bridge`` is kept in ``DocumentData.metadata["corefud"]`` and
  written back as read.
- ``Entity=``: ``(eid-etype-head-...`` opens a mention, ``eid)`` closes it, ``(...)`` is a
  one-word mention; ``eid[1/2]`` marks the parts of a discontinuous mention, which become
  one mention with several spans. The entity is the cluster (key = eid); the text after
  ``(`` is kept per mention (``metadata["corefud"]["open"]``) and written back.
- ``Bridge=A<B[:rel]`` (on the first word of a mention of B) becomes a link of type
  ``BRIDGE`` (``BRIDGE:rel``) from that mention (anaphor) to the nearest mention of A
  before it (antecedent).
- ``SplitAnte=`` stays in MISC as read, and is listed in
  ``TopicData.metadata["corefud"]["split_antecedents"]``.
- Refused: a mention on an empty node or a multiword token (our tokens are words), an
  unclosed or unopened bracket, a Bridge naming an entity without a mention.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corefscore.corpus import ClusterData, DocumentData, LinkData, MentionData, TopicData
from corefscore.formats._io import PathOrStream, display_name, open_text
from corefscore.formats.errors import (
    FormatErrors,
    FormatWarning,
    ImportReport,
    Problems,
    Skipped,
)

NAMESPACE = "corefud"
BRIDGE = "BRIDGE"
_BRACKET = re.compile(r"\(([^()]+)\)|\(([^()]+)|([^()]+)\)")
_PART = re.compile(r"^(.*)\[(\d+)/(\d+)\]$")
_WORD_ID = re.compile(r"^\d+$")
# The other rows CoNLL-U allows: a multiword token (2-3) and an empty node (5.1).
_OTHER_ID = re.compile(r"^\d+-\d+$|^\d+\.\d+$")


@dataclass
class _Open:
    eid: str
    attrs: str
    start: int
    part: tuple[int, int] | None
    line: int


@dataclass
class _Mention:
    eid: str
    attrs: str
    spans: list[tuple[int, int]] = field(default_factory=list)
    line: int = 0


def _eid_part(text: str) -> tuple[str, tuple[int, int] | None]:
    match = _PART.match(text)
    if match:
        return match.group(1), (int(match.group(2)), int(match.group(3)))
    return text, None


def _misc(value: str) -> list[str]:
    return [] if value == "_" else value.split("|")


# --------------------------------------------------------------------------- reading


def read_corefud(path_or_stream: PathOrStream, *, skip_invalid: bool = False) -> ImportReport:
    """Read a CorefUD ``.conllu`` file: one topic per ``# newdoc`` document, each a record."""
    file = display_name(path_or_stream)
    with open_text(path_or_stream) as stream:
        lines = stream.read().split("\n")
    stem = Path(file).stem if file != "<stream>" else "corefud"
    report = ImportReport()
    for number, (start, block) in enumerate(_documents(lines), start=1):
        problems = Problems(file)
        topic = _document_topic(block, start, f"{stem}-{number}", problems)
        report.errors += problems.errors
        report.warnings += problems.warnings
        if problems.errors:
            report.skipped.append(Skipped(file, start, tuple(problems.errors)))
        elif topic is not None:
            report.topics.append(topic)
    if report.errors and not skip_invalid:
        raise FormatErrors(report.errors, report)
    return report


def _documents(lines: list[str]) -> list[tuple[int, list[str]]]:
    """(first line number, lines) per document: a ``# newdoc`` comment starts one."""
    documents: list[tuple[int, list[str]]] = []
    sentence_start = True
    for number, line in enumerate(lines, start=1):
        if line.startswith("# newdoc") and sentence_start and documents and documents[-1][1]:
            documents.append((number, []))
        if not documents:
            documents.append((number, []))
        documents[-1][1].append(line)
        sentence_start = line.startswith("#") or not line.strip()
    while documents and not any(line.strip() for line in documents[-1][1]):
        documents.pop()
    return documents


def _document_topic(
    block: list[str], first_line: int, fallback_id: str, problems: Problems
) -> TopicData | None:
    document = _Document(problems)
    for offset, line in enumerate(block):
        document.line(line, first_line + offset)
    document.end_sentence()
    return document.topic(fallback_id)


class _Document:
    """One CorefUD document being read, line by line."""

    def __init__(self, problems: Problems):
        self.problems = problems
        self.sentences: list[dict[str, Any]] = []
        self.tokens: list[str] = []
        self.sentence_ranges: list[tuple[int, int]] = []
        self.opened: list[_Open] = []
        self.partial: dict[str, _Mention] = {}  # eid -> a discontinuous mention being built
        self.finished: list[_Mention] = []
        self.bridges: list[tuple[int, str, int]] = []  # word, raw value, line
        self.splits: list[str] = []
        self.doc_id: str | None = None
        self.current: dict[str, Any] | None = None

    def end_sentence(self) -> None:
        if self.current is not None and self.current["rows"]:
            self.sentence_ranges.append((self.current.pop("first"), len(self.tokens)))
            self.current = None

    def line(self, line: str, number: int) -> None:
        if not line.strip():
            self.end_sentence()
            return
        if self.current is None:
            self.current = {"comments": [], "rows": [], "first": len(self.tokens)}
            self.sentences.append(self.current)
        if line.startswith("#"):
            if self.current["rows"]:
                self.problems.error(number, None, "a comment inside a sentence")
            self.current["comments"].append(line)
            if line.startswith("# newdoc") and "id =" in line:
                self.doc_id = line.split("id =", 1)[1].strip()
            return
        cells = line.split("\t")
        if len(cells) != 10:
            self.problems.error(number, None, f"{len(cells)} columns; CoNLL-U has 10")
            return
        self._row(cells, number)

    def _row(self, cells: list[str], number: int) -> None:
        assert self.current is not None
        misc = _misc(cells[9])
        entity, bridge, split = (
            next((a.split("=", 1)[1] for a in misc if a.startswith(f"{name}=")), None)
            for name in ("Entity", "Bridge", "SplitAnte")
        )
        if _WORD_ID.match(cells[0]) is None and _OTHER_ID.match(cells[0]) is None:
            # Kept as a non-word row it would drop the word from the text, unsaid.
            self.problems.error(
                number,
                "ID",
                f"{cells[0]!r} ({cells[1]!r}) is not a word id: a number, a range such as "
                "2-3 or an empty node such as 5.1",
            )
            return
        if _WORD_ID.match(cells[0]) is None:
            if entity or bridge:
                what = "an empty node" if "." in cells[0] else "a multiword token"
                self.problems.error(
                    number,
                    "MISC",
                    f"a mention on {what} ({cells[0]} {cells[1]!r}): mentions here are made "
                    "of words",
                )
            self.current["rows"].append({"cells": cells, "word": False})
            return
        word = len(self.tokens)
        self.tokens.append(cells[1])
        kept = [a if not a.startswith(("Entity=", "Bridge=")) else a.split("=")[0] for a in misc]
        self.current["rows"].append({"cells": cells[:9], "misc": kept, "word": True})
        if split:
            self.splits.append(split)
        if bridge:
            self.bridges.append((word, bridge, number))
        if entity:
            _brackets(entity, word, number, self.opened, self.partial, self.finished, self.problems)

    def topic(self, fallback_id: str) -> TopicData | None:
        problems = self.problems
        for still in self.opened:
            problems.error(still.line, "Entity", f"mention of {still.eid} is never closed")
        for eid, mention in self.partial.items():
            problems.error(mention.line, "Entity", f"discontinuous mention of {eid} is incomplete")
        if problems.errors:
            return None
        # (eid, spans) -> mention: one entity may have two mentions starting at one word.
        mentions = {(m.eid, tuple(m.spans)): m for m in self.finished}
        topic = TopicData(external_id=self.doc_id or fallback_id)
        ordered = sorted(mentions.values(), key=lambda m: (m.spans, m.eid))
        seen: set[tuple[tuple[int, int], ...]] = set()
        for mention in ordered:
            spans = tuple(sorted(mention.spans))
            if spans in seen:
                problems.error(
                    mention.line, "Entity", f"two mentions on the same words ({mention.eid})"
                )
                continue
            seen.add(spans)
            topic.mentions.append(
                MentionData(0, spans, mention.eid, {NAMESPACE: {"open": mention.attrs}})
            )
        order = list(dict.fromkeys(m.eid for m in sorted(ordered, key=lambda m: m.spans)))
        topic.clusters = [ClusterData(eid) for eid in order]
        topic.links = _bridge_links(topic.mentions, self.bridges, problems)
        if problems.errors:
            return None
        for sentence in self.sentences:
            sentence.pop("first", None)  # a closing block of comments only keeps it
        topic.documents.append(
            DocumentData(
                doc_id=self.doc_id or fallback_id,
                tokens=self.tokens,
                sentences=self.sentence_ranges,
                metadata={NAMESPACE: {"sentences": self.sentences}},
            )
        )
        if self.splits:
            topic.metadata[NAMESPACE] = {"split_antecedents": self.splits}
        return topic


def _brackets(
    entity: str,
    word: int,
    line: int,
    opened: list[_Open],
    partial: dict[str, _Mention],
    finished: list[_Mention],
    problems: Problems,
) -> None:
    position = 0
    for match in _BRACKET.finditer(entity):
        if match.start() != position:
            problems.error(line, "Entity", f"cannot read {entity!r}")
            return
        position = match.end()
        single, opening, closing = match.groups()
        if single is not None or opening is not None:
            attrs = single if single is not None else opening
            assert attrs is not None
            eid, part = _eid_part(attrs.split("-", 1)[0])
            rest = attrs[len(attrs.split("-", 1)[0]) :]
            item = _Open(eid, eid + rest, word, part, line)
            if single is not None:
                _close(item, word, partial, finished)
            else:
                opened.append(item)
        else:
            assert closing is not None
            eid, part = _eid_part(closing)
            found = next(
                (i for i in range(len(opened) - 1, -1, -1) if _same(opened[i], eid, part)),
                None,
            )
            if found is None:
                problems.error(line, "Entity", f"{closing}) closes a mention that is not open")
                continue
            _close(opened.pop(found), word, partial, finished)
    if position != len(entity):
        problems.error(line, "Entity", f"cannot read {entity!r}")


def _same(item: _Open, eid: str, part: tuple[int, int] | None) -> bool:
    return item.eid == eid and item.part == part


def _close(item: _Open, word: int, partial: dict[str, _Mention], finished: list[_Mention]) -> None:
    if item.part is None:
        finished.append(_Mention(item.eid, item.attrs, [(item.start, word)], item.line))
        return
    index, count = item.part
    mention = partial.get(item.eid)
    if mention is None or index == 1:
        mention = partial[item.eid] = _Mention(item.eid, item.attrs, [], item.line)
    mention.spans.append((item.start, word))
    if index == count:
        finished.append(partial.pop(item.eid))


def _bridge_links(
    mentions: list[MentionData], bridges: list[tuple[int, str, int]], problems: Problems
) -> list[LinkData]:
    links = []
    for word, raw, line in bridges:
        for entry in raw.split(","):
            pair, _, relation = entry.partition(":")
            antecedent_eid, _, anaphor_eid = pair.partition("<")
            anaphor = next(
                (
                    i
                    for i, m in enumerate(mentions)
                    if m.cluster == anaphor_eid and m.spans[0][0] == word
                ),
                None,
            )
            before = [
                i
                for i, m in enumerate(mentions)
                if m.cluster == antecedent_eid and m.spans[0][0] < word
            ]
            anywhere = [i for i, m in enumerate(mentions) if m.cluster == antecedent_eid]
            antecedent = before[-1] if before else anywhere[0] if anywhere else None
            if anaphor is None or antecedent is None:
                problems.error(
                    line,
                    "Bridge",
                    f"{entry}: no mention of {anaphor_eid if anaphor is None else antecedent_eid}"
                    + (" starts at this word" if anaphor is None else ""),
                )
                continue
            type_ = f"{BRIDGE}:{relation}" if relation else BRIDGE
            links.append(LinkData(type_, anaphor, antecedent))
    return links


# --------------------------------------------------------------------------- writing


def write_corefud(topics: Iterable[TopicData], path_or_stream: PathOrStream) -> list[FormatWarning]:
    """Write topics as one CorefUD file, a ``# newdoc`` document per topic document."""
    problems = Problems(display_name(path_or_stream))
    with open_text(path_or_stream, "w") as stream:
        for topic in topics:
            for index, document in enumerate(topic.documents):
                stream.write(_document_text(topic, index, document, problems))
    return problems.warnings


def _document_text(topic: TopicData, index: int, document: DocumentData, problems: Problems) -> str:
    entity, bridge = _word_annotations(topic, index, problems)
    kept = document.metadata.get(NAMESPACE, {}).get("sentences")
    if not _kept_fits(kept, document.tokens):
        kept = _plain_sentences(topic, index, document)
    out: list[str] = []
    word = 0
    for sentence in kept:
        out += sentence["comments"]
        for row in sentence["rows"]:
            if not row["word"]:
                out.append("\t".join(row["cells"]))
                continue
            misc = _misc_with(list(row["misc"]), entity.get(word), bridge.get(word))
            out.append("\t".join([*row["cells"], misc]))
            word += 1
        out.append("")
    return "\n".join(out) + "\n"


def _kept_fits(kept: Any, tokens: list[str]) -> bool:
    try:
        forms = [r["cells"][1] for s in kept for r in s["rows"] if r["word"]]
    except (TypeError, KeyError, IndexError):
        return False
    return forms == tokens


def _plain_sentences(topic: TopicData, index: int, document: DocumentData) -> list[dict[str, Any]]:
    ranges = document.sentences or [(0, len(document.tokens))]
    sentences = []
    for number, (start, end) in enumerate(ranges, start=1):
        comments = []
        if number == 1:
            comments += [
                f"# newdoc id = {document.doc_id or topic.external_id}",
                "# global.Entity = eid-etype-head-other",
            ]
        comments += [
            f"# sent_id = {document.doc_id or topic.external_id}-{number}",
            f"# text = {' '.join(document.tokens[start:end])}",
        ]
        rows = [
            {
                "cells": [str(i - start + 1), document.tokens[i], *["_"] * 7],
                "misc": [],
                "word": True,
            }
            for i in range(start, end)
        ]
        sentences.append({"comments": comments, "rows": rows})
    return sentences


def _misc_with(misc: list[str], entity: str | None, bridge: str | None) -> str:
    values = {"Entity": entity, "Bridge": bridge}
    out = []
    for attribute in misc:
        if attribute in values:
            value = values.pop(attribute)
            if value:
                out.append(f"{attribute}={value}")
        else:
            out.append(attribute)
    for name, value in values.items():
        if value:
            out.append(f"{name}={value}")
            out.sort(key=lambda a: a.split("=", 1)[0].lower())
    return "|".join(out) or "_"


_UNSAFE = re.compile(r"[-()|=,<>:\[\]\s]")


def entity_ids(topic: TopicData) -> dict[str, str]:
    """Cluster key -> the eid written: the key itself where CorefUD allows it (no ``-``,
    brackets, ``|``, ``=``, ``,``, ``<``, ``>``, ``:`` or spaces), else ``e1``, ``e2``..."""
    keys = list(dict.fromkeys(m.cluster for m in topic.mentions if m.cluster is not None))
    safe = {k for k in keys if k and not _UNSAFE.search(k)}
    out: dict[str, str] = {}
    number = 0
    for key in keys:
        if key in safe:
            out[key] = key
            continue
        number += 1
        while f"e{number}" in safe:
            number += 1
        out[key] = f"e{number}"
    return out


@dataclass
class _Part:
    eid: str
    open: str
    close: str
    start: int
    end: int


def _word_annotations(
    topic: TopicData, index: int, problems: Problems
) -> tuple[dict[int, str], dict[int, str]]:
    """Word -> the Entity value and the Bridge value written there."""
    parts: list[_Part] = []
    eids = entity_ids(topic)
    for position, mention in enumerate(topic.mentions):
        if mention.document != index:
            continue
        eid = eids[mention.cluster] if mention.cluster is not None else f"s{position}"
        while mention.cluster is None and eid in eids.values():
            eid += "x"
        attrs = mention.metadata.get(NAMESPACE, {}).get("open") or eid
        count = len(mention.spans)
        for number, (start, end) in enumerate(mention.spans, start=1):
            if count == 1:
                opening, closing = attrs, eid
            else:
                suffix = f"[{number}/{count}]"
                head, _, rest = attrs.partition("-")
                base = _eid_part(head)[0]
                # The attributes go with the first part only, as CorefUD writes them.
                opening = f"{base}{suffix}" + (f"-{rest}" if rest and number == 1 else "")
                closing = f"{base}{suffix}"
            parts.append(_Part(eid, opening, closing, start, end))
    entity: dict[int, list[str]] = {}
    words = sorted({p.start for p in parts} | {p.end for p in parts})
    for word in words:
        openings = sorted(
            (p for p in parts if p.start == word and p.end > word), key=lambda p: -p.end
        )
        singles = [p for p in parts if p.start == word == p.end]
        closings = sorted(
            (p for p in parts if p.end == word and p.start < word), key=lambda p: -p.start
        )
        entity[word] = (
            [f"({p.open}" for p in openings]
            + [f"({p.open})" for p in singles]
            + [f"{p.close})" for p in closings]
        )
    bridge: dict[int, list[str]] = {}
    for link in topic.links:
        if not link.type.startswith(BRIDGE):
            continue
        anaphor, antecedent = topic.mentions[link.anaphor], topic.mentions[link.antecedent]
        if anaphor.document != index:
            continue
        if anaphor.cluster is None or antecedent.cluster is None:
            problems.warn(topic.external_id, "links", "a bridge between unclustered mentions")
            continue
        relation = link.type[len(BRIDGE) + 1 :]
        pair = f"{eids[antecedent.cluster]}<{eids[anaphor.cluster]}"
        value = pair + (f":{relation}" if relation else "")
        bridge.setdefault(anaphor.spans[0][0], []).append(value)
    other = [link for link in topic.links if not link.type.startswith(BRIDGE)]
    if other and index == 0:
        problems.warn(
            topic.external_id, "links", f"{len(other)} non-bridging link(s) are not written"
        )
    return (
        {w: "".join(v) for w, v in entity.items()},
        {w: ",".join(v) for w, v in bridge.items()},
    )
