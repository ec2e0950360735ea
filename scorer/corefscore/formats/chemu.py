"""ChEMU-Ref jsonlines (Fang et al., EACL 2021): one reaction snippet per line.

A line: ``doc_key``, ``sentences`` (lists of tokens), and for each relation type
(``Coreference``, ``Transformed``, ``Reaction-associated``, ``Work-up``, ``Contained``) a
list of ``[anaphor, antecedent]`` pairs; a mention is a list of ``[start, end]`` spans,
ends inclusive, over the snippet's concatenated tokens (more than one span: discontinuous).

Mapping: one line -> one topic (external id ``doc_key``) with one document (its tokens
concatenated, sentence boundaries kept); mentions = the distinct span sets the relations
use, in order of first token; relations -> typed links in file order.

Validation decisions (docs/formats.md): official data goes in and comes out as released.
- A link with an empty side names no mention, so it is no link of the workspace: it is kept
  as released in ``metadata["chemu"]["held"]`` (its type key, its index in that list and the
  pair as written), with a warning naming line, field and side; the writer puts it back in
  its place. Its non-empty side is not made a mention (the mentions are the span sets the
  links join).
- A repeated link is one link, and each repeat is held the same way (the writer writes it
  again while the link is there). So is a link of a mention to itself (no link of the
  workspace either).
- Malformed JSON, missing fields, malformed spans and offsets out of range invalidate the
  whole line (with ``skip_invalid``: the line is skipped).
- A link the workspace would refuse (formats/link_checks.py: self link, antecedent not
  before its anaphor, a second TRANSFORMED link of one anaphor or antecedent) is kept as it
  is, with a warning. With ``link_rules`` (what the importer asks for) the warning says the
  workspace would refuse it, and it, an empty side and a repeat are also listed in
  ``metadata["chemu"]["marks"]`` (field and message: what the workspace shows as flagged).
- What annotators wrote on links (a note, attributes) goes in one extra key,
  ``relation_notes``: a list of ``{"relation": key, "pair": [anaphor, antecedent], "note":
  ..., "attributes": {name: value}}``, the pair written as in the relation's list, so the
  entry names its link by its spans whatever the lists' order. Official readers ignore the
  key; it is only written when some link carries one. An entry that names no link of the
  line is left out with a warning; a malformed one invalidates the line.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from itertools import pairwise
from typing import Any

from corefscore.corpus import DocumentData, LinkData, MentionData, Spans, TopicData
from corefscore.formats._io import PathOrStream, display_name, is_int, json_type, open_text
from corefscore.formats.errors import (
    FormatErrors,
    FormatWarning,
    ImportReport,
    Problems,
    Skipped,
)
from corefscore.formats.link_checks import KEPT, REFUSED, link_problems
from corefscore.formats.linktypes import CHEMU_NAMES, link_type

FORMAT = "chemu"
DEFAULT_FIELDS = ("doc_key", "sentences", *CHEMU_NAMES.values())
SIDES = ("anaphor", "antecedent")
# What of ``metadata["chemu"]`` records the file's gold itself (the held link entries, the
# marks): an import keeps it with the gold annotation, not with the topic.
GOLD_KEYS = ("held", "marks")
NOTES_KEY = "relation_notes"
_Pair = tuple[
    str, str, int, list[Any]
]  # (relation key, link type, index in the list, [anaphor, antecedent])


# --------------------------------------------------------------------------- reading


def read_chemu_jsonlines(
    path_or_stream: PathOrStream, *, skip_invalid: bool = False, link_rules: bool = False
) -> ImportReport:
    """Read a ChEMU-Ref jsonlines file; raise :class:`FormatErrors` listing every error,
    unless ``skip_invalid`` (bad lines skipped). Every link is kept (see the module's
    docstring); with ``link_rules`` the ones the workspace would refuse are also marked."""
    file = display_name(path_or_stream)
    report = ImportReport()
    seen_keys: dict[str, int] = {}
    with open_text(path_or_stream) as stream:
        for line_number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            parser = _LineParser(file, line_number, link_rules)
            topic = parser.parse(line)
            if topic is not None and topic.external_id in seen_keys:
                first = seen_keys[topic.external_id]
                parser.record_error(
                    "doc_key", f"doc_key {topic.external_id} is already used on line {first}"
                )
                topic = None
            if topic is not None:
                seen_keys[topic.external_id] = line_number
            report.errors += parser.record_problems.errors
            report.warnings += parser.record_problems.warnings
            if parser.record_problems.errors:
                report.skipped.append(
                    Skipped(file, line_number, tuple(parser.record_problems.errors))
                )
                continue
            if topic is not None:
                report.topics.append(topic)
    if report.errors and not skip_invalid:
        raise FormatErrors(report.errors, report)
    return report


class _LineParser:
    def __init__(self, file: str, line: int, link_rules: bool = False):
        self.file, self.line, self.link_rules = file, line, link_rules
        self.record_problems = Problems(file)
        # Link entries the workspace's links cannot carry, and what the workspace flags.
        self.held: list[dict[str, Any]] = []
        self.marks: list[dict[str, str]] = []

    def record_error(self, field: str | None, message: str) -> None:
        self.record_problems.error(self.line, field, message)

    def warn(self, field: str | None, message: str) -> None:
        self.record_problems.warn(self.line, field, message)

    def parse(self, line: str) -> TopicData | None:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            self.record_error(None, f"malformed JSON: {exc.msg} at column {exc.colno}")
            return None
        if not isinstance(obj, dict):
            self.record_error(None, "a snippet must be a JSON object")
            return None
        doc_key = obj.get("doc_key")
        if not isinstance(doc_key, str) or not doc_key:
            self.record_error(
                "doc_key", "missing" if doc_key is None else "must be a non-empty string"
            )
        tokens, sentences = self.sentences(obj.get("sentences"))
        for key, value in obj.items():
            # A link type's field that is not a list is an error, not an unknown field kept
            # aside: the file's links would be lost without a word.
            if link_type(key) is not None and not isinstance(value, list):
                self.record_error(
                    key, f"must be a list of [anaphor, antecedent] pairs, not {json_type(value)}"
                )
        type_keys = {
            key: kind
            for key in obj
            if isinstance(obj[key], list) and (kind := link_type(key)) is not None
        }
        pairs = self.pairs(obj, type_keys, tokens)
        if self.record_problems.errors:
            return None
        assert isinstance(doc_key, str)  # (an error above otherwise)
        notes = self.notes(obj.get(NOTES_KEY, []), type_keys)
        if self.record_problems.errors:
            return None
        mentions, links = self.mentions_and_links(pairs, tokens)
        self.put_notes(notes, mentions, links)
        chemu: dict[str, Any] = {}
        # The notes key is written after the fields whenever there are notes, so its place in
        # the line is no field order to keep.
        keys = [key for key in obj if key != NOTES_KEY]
        if tuple(keys) != DEFAULT_FIELDS:
            chemu["fields"] = keys
        renamed = {t: key for key, t in type_keys.items() if key != CHEMU_NAMES[t]}
        if renamed:
            chemu["type_keys"] = renamed
        if self.held:
            chemu["held"] = self.held
        if self.marks:
            chemu["marks"] = self.marks
        modelled = {"doc_key", "sentences", NOTES_KEY, *type_keys}
        extra = {key: value for key, value in obj.items() if key not in modelled}
        if extra:
            chemu["extra"] = extra
        document = DocumentData(doc_id=doc_key, tokens=tokens, sentences=sentences)
        return TopicData(
            external_id=doc_key,
            documents=[document],
            mentions=mentions,
            links=links,
            metadata={FORMAT: chemu} if chemu else {},
        )

    def notes(
        self, value: Any, type_keys: dict[str, str]
    ) -> list[tuple[str, str, Spans, Spans, str, dict[str, str]]]:
        """(field, link type, anaphor, antecedent, note, attributes) of each entry."""
        if not isinstance(value, list):
            self.record_error(NOTES_KEY, f"must be a list of objects, not {json_type(value)}")
            return []
        result = []
        for i, entry in enumerate(value):
            field = f"{NOTES_KEY}[{i}]"
            pair = entry.get("pair") if isinstance(entry, dict) else None
            note = entry.get("note", "") if isinstance(entry, dict) else None
            attributes = entry.get("attributes", {}) if isinstance(entry, dict) else None
            shapely = (
                isinstance(pair, list)
                and len(pair) == 2
                and all(
                    isinstance(spans, list)
                    and spans
                    and all(
                        isinstance(span, list) and len(span) == 2 and all(is_int(x) for x in span)
                        for span in spans
                    )
                    for spans in pair
                )
            )
            if not (
                isinstance(entry, dict)
                and isinstance(entry.get("relation"), str)
                and shapely
                and isinstance(note, str)
                and isinstance(attributes, dict)
                and all(isinstance(v, str) for v in attributes.values())
            ):
                self.record_error(
                    field,
                    'must be {"relation": key, "pair": [anaphor, antecedent], "note": text, '
                    '"attributes": {name: value}}',
                )
                continue
            assert isinstance(pair, list)
            assert isinstance(note, str)
            kind = type_keys.get(entry["relation"])
            if kind is None:
                self.warn(
                    field, f"{entry['relation']!r} is no relation list of this line; left out"
                )
                continue
            result.append(
                (
                    field,
                    kind,
                    _sorted_spans(pair[0]),
                    _sorted_spans(pair[1]),
                    note,
                    {str(k): v for k, v in attributes.items()},
                )
            )
        return result

    def put_notes(
        self,
        notes: list[tuple[str, str, Spans, Spans, str, dict[str, str]]],
        mentions: list[MentionData],
        links: list[LinkData],
    ) -> None:
        by_identity = {
            (link.type, mentions[link.anaphor].spans, mentions[link.antecedent].spans): link
            for link in links
        }
        for field, kind, anaphor, antecedent, note, attributes in notes:
            link = by_identity.get((kind, anaphor, antecedent))
            if link is None:
                self.warn(field, "names no link of this line; its note and attributes left out")
                continue
            link.note, link.attributes = note, attributes

    def sentences(self, value: Any) -> tuple[list[str], list[tuple[int, int]]]:
        tokens: list[str] = []
        bounds: list[tuple[int, int]] = []
        if value is None:
            self.record_error("sentences", "missing")
        elif not isinstance(value, list):
            self.record_error("sentences", "must be a list of sentences (lists of tokens)")
        else:
            for s, sentence in enumerate(value):
                if not isinstance(sentence, list) or not all(isinstance(t, str) for t in sentence):
                    self.record_error(f"sentences[{s}]", "must be a list of string tokens")
                    continue
                bounds.append((len(tokens), len(tokens) + len(sentence)))
                tokens.extend(sentence)
        return tokens, bounds

    def pairs(
        self, obj: dict[str, Any], type_keys: dict[str, str], tokens: list[str]
    ) -> list[_Pair]:
        size = len(tokens)
        """(key, type, index, [anaphor spans, antecedent spans]) for every well-formed link."""
        result = []
        for key, kind in type_keys.items():
            for index, pair in enumerate(obj[key]):
                field = f"{key}[{index}]"
                if not (isinstance(pair, list) and len(pair) == 2):
                    self.record_error(
                        field, f"a link must be [anaphor, antecedent], not {json.dumps(pair)[:80]}"
                    )
                    continue
                empty = [side for side, spans in zip(SIDES, pair, strict=True) if spans == []]
                ok = all(
                    self.spans(f"{field}[{i}]", spans, size)
                    for i, spans in enumerate(pair)
                    if spans != []
                )
                if not ok:
                    continue
                if empty:
                    self.hold_empty(key, index, pair, empty, tokens)
                    continue
                result.append((key, kind, index, pair))
        return result

    def mark(self, field: str, message: str) -> None:
        """A warning, and with ``link_rules`` a mark the workspace shows on the topic."""
        self.warn(field, message)
        if self.link_rules:
            self.marks.append({"field": field, "message": message})

    def hold_empty(
        self, key: str, index: int, pair: list[Any], empty: list[str], tokens: list[str]
    ) -> None:
        other = [
            f"{side} {json.dumps(spans)} {_text(spans, tokens)!r}"
            for side, spans in zip(SIDES, pair, strict=True)
            if spans != []
        ]
        position = SIDES.index(empty[0]) if len(empty) == 1 else None
        field = f"{key}[{index}]" + (f"[{position}]" if position is not None else "")
        message = f"the {' and the '.join(empty)} {'is' if len(empty) == 1 else 'are'} empty"
        if other:
            message += f" ({other[0]})"
        self.held.append({"key": key, "index": index, "pair": pair, "why": "empty"})
        self.mark(field, f"{message}; kept as released, not a link of the workspace")

    def spans(self, field: str, spans: Any, size: int) -> bool:
        if not isinstance(spans, list):
            self.record_error(
                field,
                f"a mention must be a list of [start, end] spans, not {json.dumps(spans)[:80]}",
            )
            return False
        ok = True
        for s, span in enumerate(spans):
            if not (isinstance(span, list) and len(span) == 2 and all(is_int(x) for x in span)):
                shown = json.dumps(span)[:80]
                self.record_error(
                    f"{field}[{s}]", f"a span must be [start, end] (two integers), not {shown}"
                )
                ok = False
                continue
            start, end = span
            for position, offset in ((0, start), (1, end)):
                if not 0 <= offset < size:
                    self.record_error(
                        f"{field}[{s}][{position}]",
                        f"offset {offset} is beyond the snippet's {size} tokens",
                    )
                    ok = False
            if ok and start > end:
                self.record_error(f"{field}[{s}]", f"start {start} is after end {end}")
                ok = False
        if ok:
            ordered = sorted(tuple(span) for span in spans)
            for a, b in pairwise(ordered):
                if a[1] >= b[0]:
                    self.record_error(field, f"spans {list(a)} and {list(b)} overlap")
                    ok = False
        return ok

    def mentions_and_links(
        self, pairs: list[_Pair], tokens: list[str]
    ) -> tuple[list[MentionData], list[LinkData]]:
        mentions, links, fields = self.linked(pairs, tokens)
        broken = link_problems(
            links,
            mentions,
            describe=lambda m: _describe(mentions[m].spans, tokens),
            name=fields.__getitem__,
        )
        for problem in broken:
            if self.link_rules:
                self.mark(
                    fields[problem.index],
                    f"{problem.message}; imported as released, but {REFUSED} (rule {problem.rule})",
                )
            else:
                self.warn(fields[problem.index], f"{problem.message}; {KEPT}")
        return mentions, links

    def linked(
        self, pairs: list[_Pair], tokens: list[str]
    ) -> tuple[list[MentionData], list[LinkData], list[str]]:
        """The mentions the pairs use (in order of first token), the links once each, and
        each link's field; a repeated link is held (written back in its place)."""
        orders: dict[Spans, list[int]] = {}
        for _, _, _, pair in pairs:
            for spans in pair:
                in_order = _sorted_spans(spans)
                orders.setdefault(in_order, _written_order(spans, in_order))
        ordered = sorted(orders, key=lambda spans: (spans[0][0], spans))
        index = {spans: i for i, spans in enumerate(ordered)}
        mentions = []
        for spans in ordered:
            order = orders[spans]
            mentions.append(
                MentionData(
                    document=0, spans=spans, metadata={"span_order": order} if order else {}
                )
            )
        links: list[LinkData] = []
        fields: list[str] = []
        first: dict[tuple[str, int, int], str] = {}
        for key, type_, i, (anaphor, antecedent) in pairs:
            field = f"{key}[{i}]"
            link = LinkData(type_, index[_sorted_spans(anaphor)], index[_sorted_spans(antecedent)])
            identity = (link.type, link.anaphor, link.antecedent)
            if link.anaphor == link.antecedent:
                # The database holds no link of a mention to itself: kept as released.
                self.held.append(
                    {"key": key, "index": i, "pair": [anaphor, antecedent], "why": "self"}
                )
                self.mark(
                    field,
                    "the anaphor and the antecedent are the same mention "
                    f"({_describe(_sorted_spans(anaphor), tokens)}); kept as released, not a "
                    "link of the workspace",
                )
                continue
            if identity in first:
                self.held.append(
                    {"key": key, "index": i, "pair": [anaphor, antecedent], "why": "repeat"}
                )
                self.mark(field, f"repeats {first[identity]}; one link, written back twice")
                continue
            first[identity] = field
            links.append(link)
            fields.append(field)
        return mentions, links, fields


def _sorted_spans(spans: list[list[int]]) -> Spans:
    return tuple(sorted((int(s), int(e)) for s, e in spans))


def _written_order(spans: list[list[int]], ordered: Spans) -> list[int]:
    """How the file ordered a discontinuous mention's spans (``[]`` when already sorted)."""
    as_written = [tuple(span) for span in spans]
    order = [ordered.index(span) for span in as_written]
    return [] if order == sorted(order) else order


def _text(spans: list[list[int]], tokens: list[str]) -> str:
    return " ... ".join(" ".join(tokens[s : e + 1]) for s, e in _sorted_spans(spans))


def _describe(spans: Spans, tokens: list[str]) -> str:
    text = " ... ".join(" ".join(tokens[s : e + 1]) for s, e in spans)
    where = ",".join(f"{s}-{e}" for s, e in spans)
    return f"tokens {where} {text!r}"


# --------------------------------------------------------------------------- writing


def write_chemu_jsonlines(
    topics: Iterable[TopicData], path_or_stream: PathOrStream
) -> list[FormatWarning]:
    """Write topics as ChEMU-Ref jsonlines: one line per document (one per topic for topics
    read from ChEMU-Ref). Returns warnings about what could not be written."""
    problems = Problems(display_name(path_or_stream))
    with open_text(path_or_stream, "w") as stream:
        for topic in topics:
            for line in topic_to_chemu(topic, problems):
                stream.write(json.dumps(line) + "\n")
    return problems.warnings


def topic_to_chemu(topic: TopicData, problems: Problems | None = None) -> list[dict[str, Any]]:
    """The ChEMU-Ref lines of a topic: one per document (ChEMU-Ref has no cross-document links)."""
    problems = problems or Problems("<chemu>")
    chemu: dict[str, Any] = topic.metadata.get(FORMAT, {})
    type_keys = {t: chemu.get("type_keys", {}).get(t, name) for t, name in CHEMU_NAMES.items()}
    fields = list(chemu.get("fields", DEFAULT_FIELDS))
    for t in CHEMU_NAMES:
        if type_keys[t] not in fields and any(link.type == t for link in topic.links):
            fields.append(type_keys[t])
    lines = []
    for d, document in enumerate(topic.documents):
        doc_key = topic.external_id if len(topic.documents) == 1 else document.doc_id
        values: dict[str, Any] = {"doc_key": doc_key, "sentences": _sentence_lists(document)}
        values.update({key: [] for key in type_keys.values()})
        values.update(chemu.get("extra", {}))
        lines.append((d, values))
    by_document = dict(lines)
    for i, link in enumerate(topic.links):
        key = type_keys.get(link.type)
        anaphor, antecedent = topic.mentions[link.anaphor], topic.mentions[link.antecedent]
        if key is None:
            problems.warn(
                topic.external_id,
                f"links[{i}]",
                f"type {link.type} is not a ChEMU-Ref relation type; not written",
            )
        elif anaphor.document != antecedent.document:
            problems.warn(
                topic.external_id,
                f"links[{i}]",
                "links across documents cannot be written to ChEMU-Ref; not written",
            )
        else:
            pair = [_written_spans(anaphor), _written_spans(antecedent)]
            by_document[anaphor.document][key].append(pair)
            if link.note or link.attributes:
                entry: dict[str, Any] = {"relation": key, "pair": pair}
                if link.note:
                    entry["note"] = link.note
                if link.attributes:
                    entry["attributes"] = dict(link.attributes)
                by_document[anaphor.document].setdefault(NOTES_KEY, []).append(entry)
    if any(NOTES_KEY in values for _, values in lines) and NOTES_KEY not in fields:
        fields.append(NOTES_KEY)
    if len(topic.documents) == 1:
        _put_back_held(chemu.get("held") or [], by_document[0], topic)
    if any(len(members) > 1 for members in topic.cluster_members().values()):
        problems.warn(
            topic.external_id,
            "clusters",
            "ChEMU-Ref jsonlines has no clusters; write them as Coreference links",
        )
    return [{name: values[name] for name in fields if name in values} for _, values in lines]


def held_entries(topic: TopicData, why: str | None = None) -> list[dict[str, Any]]:
    """The link entries of a topic read from ChEMU-Ref that are no link of the workspace
    (``why``: "empty" for an empty side, "repeat" for a repeated link, "self" for a link of
    a mention to itself; None: all)."""
    held = topic.metadata.get(FORMAT, {}).get("held") or []
    return [h for h in held if isinstance(h, dict) and (why is None or h.get("why") == why)]


def link_entries(topic: TopicData) -> Counter[str]:
    """Link type -> the link entries its file lists (ChEMU-Ref Table 1 counts these): the
    topic's links and the held entries that go back with them (an empty side; a repeat of a
    link still there), what ``topic_to_chemu`` writes."""
    present = {
        (link.type, topic.mentions[link.anaphor].spans, topic.mentions[link.antecedent].spans)
        for link in topic.links
    }
    counts = Counter(link.type for link in topic.links)
    for entry in held_entries(topic):
        kind, pair = link_type(str(entry.get("key"))), entry.get("pair")
        if kind is None or not (isinstance(pair, list) and len(pair) == 2):
            continue
        if entry.get("why") != "repeat" or (
            (kind, _sorted_spans(pair[0]), _sorted_spans(pair[1])) in present
        ):
            counts[kind] += 1
    return counts


def _put_back_held(held: list[Any], values: dict[str, Any], topic: TopicData) -> None:
    """Each held entry back at its index in its list (ascending, so an untouched topic is
    written as read); a repeat only while its link is still there."""
    present = {
        (link.type, topic.mentions[link.anaphor].spans, topic.mentions[link.antecedent].spans)
        for link in topic.links
    }
    ordered = sorted(
        (
            h
            for h in held
            if isinstance(h, dict) and isinstance(values.get(str(h.get("key"))), list)
        ),
        key=lambda h: int(h.get("index", 0)),
    )
    for entry in ordered:
        pair, entries = entry.get("pair"), values[entry["key"]]
        if not (isinstance(pair, list) and len(pair) == 2):
            continue
        if entry.get("why") == "repeat":
            kind = link_type(entry["key"])
            if (kind, _sorted_spans(pair[0]), _sorted_spans(pair[1])) not in present:
                continue
        entries.insert(min(int(entry.get("index", len(entries))), len(entries)), pair)


def _sentence_lists(document: DocumentData) -> list[list[str]]:
    """Tokens cut at the sentence boundaries; tokens outside every sentence form their own."""
    result, position = [], 0
    for start, end in sorted(document.sentences):
        if start > position:
            result.append(document.tokens[position:start])
        result.append(document.tokens[start:end])
        position = max(position, end)
    if position < len(document.tokens) or not result:
        result.append(document.tokens[position:])
    return result


def _written_spans(mention: MentionData) -> list[list[int]]:
    order = mention.metadata.get("span_order") or list(range(len(mention.spans)))
    if sorted(order) != list(range(len(mention.spans))):
        order = list(range(len(mention.spans)))
    return [list(mention.spans[i]) for i in order]
