"""brat standoff: a ``.txt`` file and its ``.ann`` annotations (ChEMU-Ref's brat release).

``.ann`` lines: ``T1<TAB>Type 0 5;10 15<TAB>text`` (an entity, fragments = discontinuous),
``R1<TAB>Type Arg1:T1 Arg2:T2`` (a relation; Arg1 = anaphor, Arg2 = antecedent),
``*<TAB>Coreference T1 T2 T3`` (an equivalence set), and ``#`` notes, ``A``/``M``
attributes, ``E`` events, ``N`` normalisations, which we keep as they are.

Mapping: one pair -> one topic (external id = file stem) with one document. The text is
tokenised by :mod:`chartokens` (whitespace and punctuation, cut at every entity offset);
sentences are the text's lines. Entities -> mentions (spans = the tokens of each fragment;
mentions in order of first token); relations of the five ChEMU-Ref types -> links;
equivalence sets -> clusters (keys ``"1"``, ``"2"``... in order of first set). brat ids,
entity types and every line we do not interpret are kept in metadata for the writer.
A relation the workspace would refuse (formats/link_checks.py) is kept with a warning; with
``link_rules`` (the importer) it is an error, and with ``skip_invalid`` that link alone is
left out and listed (scope ``link R3``), the rest of the pair is read.

The writer writes the text as tokens joined by single spaces, one sentence per line, and
computes the character offsets, so brat -> TopicData -> brat -> TopicData is stable.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from itertools import count
from pathlib import Path
from typing import Any

from corefscore.corpus import (
    ClusterData,
    DocumentData,
    LinkData,
    MentionData,
    Spans,
    TopicData,
)
from corefscore.formats.brat_ann import (
    AnnParser,
    Entity,
    Equivalence,
    RelationLine,
    token_spans,
)
from corefscore.formats.chartokens import tokenize
from corefscore.formats.errors import (
    FormatError,
    FormatErrors,
    FormatWarning,
    ImportReport,
    Problems,
    Skipped,
)
from corefscore.formats.link_checks import KEPT, REFUSED, link_problems
from corefscore.formats.linktypes import CHEMU_NAMES, link_type

FORMAT = "brat"
DEFAULT_ENTITY_TYPE = "Mention"
DEFAULT_EQUIV_TYPE = "Coreference"


# --------------------------------------------------------------------------- reading


def read_brat(
    path: str | os.PathLike[str], *, skip_invalid: bool = False, link_rules: bool = False
) -> ImportReport:
    """Read a folder of ``.txt``/``.ann`` pairs (in name order), or one pair (given by its
    ``.txt``, its ``.ann`` or its stem). A pair is one record: with ``skip_invalid`` a bad
    pair is left out and listed in ``skipped``; without it every error is raised at once.
    With ``link_rules``, relations the workspace would refuse are errors (with
    ``skip_invalid``: only those relations are left out)."""
    report = ImportReport()
    for txt, ann in _pairs(Path(path), report):
        problems = Problems(ann.name)
        dropped: list[tuple[str, FormatError]] = []
        topic = _read_pair(txt, ann, problems, link_rules, dropped)
        report.errors += problems.errors + [error for _, error in dropped]
        report.warnings += problems.warnings
        if problems.errors:
            report.skipped.append(Skipped(ann.name, None, tuple(problems.errors)))
        elif topic is not None:
            report.skipped += [
                Skipped(ann.name, id_, (error,), scope=f"link {id_}") for id_, error in dropped
            ]
            report.topics.append(topic)
    if report.errors and not skip_invalid:
        raise FormatErrors(report.errors, report)
    return report


def _pairs(path: Path, report: ImportReport) -> list[tuple[Path, Path]]:
    if path.is_dir():
        stems = sorted({p.stem for p in path.iterdir() if p.suffix in (".txt", ".ann")})
        folder = path
    else:
        stems, folder = [path.stem if path.suffix in (".txt", ".ann") else path.name], path.parent
    pairs = []
    for stem in stems:
        txt, ann = folder / f"{stem}.txt", folder / f"{stem}.ann"
        if not txt.exists():
            error = Problems(ann.name).error(None, None, f"no {txt.name} beside it")
            report.errors.append(error)
            report.skipped.append(Skipped(ann.name, None, (error,)))
            continue
        pairs.append((txt, ann))
    return pairs


def _read_pair(
    txt: Path,
    ann: Path,
    problems: Problems,
    link_rules: bool = False,
    dropped: list[tuple[str, FormatError]] | None = None,
) -> TopicData | None:
    text = txt.read_text(encoding="utf-8")
    if ann.exists():
        lines = ann.read_text(encoding="utf-8").splitlines()
    else:
        problems.warn(None, None, f"missing; {txt.name} is read without annotations")
        lines = []
    parsed = AnnParser(text, problems).parse(lines)
    if parsed is None or problems.errors:
        return None
    entities, relations, equivalences, other_lines = parsed
    boundaries = [
        offset for e in entities.values() for fragment in e.fragments for offset in fragment
    ]
    token_ranges = tokenize(text, boundaries)
    starts = [start for start, _ in token_ranges]
    ends = [end for _, end in token_ranges]
    for entity in entities.values():
        entity.spans = token_spans(entity, starts, ends, problems)
    if problems.errors:
        return None
    document = DocumentData(
        doc_id=txt.stem,
        tokens=[text[start:end] for start, end in token_ranges],
        sentences=_line_sentences(text, token_ranges),
    )
    topic = _topic(txt.stem, document, entities, relations, equivalences, other_lines, problems)
    _apply_link_rules(topic, problems, link_rules, [] if dropped is None else dropped)
    return topic


def _line_sentences(text: str, token_ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    sentences: list[tuple[int, int]] = []
    breaks = [i for i, char in enumerate(text) if char == "\n"]
    line_of = [bisect_right(breaks, start) for start, _ in token_ranges]
    for index, line in enumerate(line_of):
        if index == 0 or line != line_of[index - 1]:
            sentences.append((index, index + 1))
        else:
            sentences[-1] = (sentences[-1][0], index + 1)
    return sentences


def _topic(
    stem: str,
    document: DocumentData,
    entities: dict[str, Entity],
    relations: list[RelationLine],
    equivalences: list[Equivalence],
    other_lines: list[str],
    problems: Problems,
) -> TopicData:
    by_spans: dict[Spans, list[Entity]] = {}
    for entity in entities.values():
        by_spans.setdefault(entity.spans, []).append(entity)
    ordered = sorted(by_spans, key=lambda spans: (spans[0][0], spans))
    mention_of: dict[str, int] = {}
    mentions = []
    for index, spans in enumerate(ordered):
        first, *others = by_spans[spans]
        for other in others:
            problems.warn(
                other.id, "offsets", f"same tokens as {first.id}; the two are one mention"
            )
        for entity in by_spans[spans]:
            mention_of[entity.id] = index
        mentions.append(
            MentionData(
                document=0, spans=spans, metadata={FORMAT: {"id": first.id, "type": first.type}}
            )
        )
    brat: dict[str, Any] = {}
    links, relation_ids, relation_names = _links(
        relations, mention_of, mentions, document, problems, other_lines
    )
    _read_link_notes(links, relation_ids, other_lines)
    if relation_ids:
        brat["relation_ids"], brat["relation_names"] = relation_ids, relation_names
    clusters, equiv_types = _clusters(equivalences, mention_of, mentions, problems)
    if equiv_types:
        brat["equivalence_types"] = equiv_types
    if other_lines:
        brat["other_lines"] = other_lines
    return TopicData(
        external_id=stem,
        documents=[document],
        mentions=mentions,
        clusters=clusters,
        links=links,
        metadata={FORMAT: brat} if brat else {},
    )


def _links(
    relations: list[RelationLine],
    mention_of: dict[str, int],
    mentions: list[MentionData],
    document: DocumentData,
    problems: Problems,
    other_lines: list[str],
) -> tuple[list[LinkData], list[str], list[str]]:
    links: list[LinkData] = []
    ids: list[str] = []
    names: list[str] = []
    seen: dict[tuple[str, int, int], str] = {}
    for id_, name, arg1, arg2, _number in relations:
        type_ = link_type(name)
        if type_ is None:
            problems.warn(
                id_,
                "type",
                f"{name} is not one of {', '.join(CHEMU_NAMES.values())}; kept in the "
                "topic's metadata, not read as a link",
            )
            other_lines.append(f"{id_}\t{name} Arg1:{arg1} Arg2:{arg2}")
            continue
        link = LinkData(type_, mention_of[arg1], mention_of[arg2])
        identity = (link.type, link.anaphor, link.antecedent)
        if identity in seen:
            problems.warn(id_, None, f"repeats {seen[identity]}; kept once")
            continue
        seen[identity] = id_
        links.append(link)
        ids.append(id_)
        names.append(name)
    return links, ids, names


_NOTE_LINE = re.compile(r"^#\d+\tAnnotatorNotes (R\d+)\t(.*)$")
_ATTRIBUTE_LINE = re.compile(r"^A\d+\t(\S+) (R\d+) (\S+)$")


def _read_link_notes(links: list[LinkData], ids: list[str], other_lines: list[str]) -> None:
    """A relation's ``#`` AnnotatorNotes line becomes its link's note, and its valued ``A``
    attribute lines its attributes; those lines leave ``other_lines`` (the writer writes them
    from the link again). Lines on entities, or unvalued (binary) attributes, stay kept."""
    by_id = dict(zip(ids, links, strict=True))
    kept = []
    for line in other_lines:
        note, attribute = _NOTE_LINE.match(line), _ATTRIBUTE_LINE.match(line)
        if note and note.group(1) in by_id and not by_id[note.group(1)].note:
            by_id[note.group(1)].note = note.group(2)
        elif attribute and attribute.group(2) in by_id:
            by_id[attribute.group(2)].attributes[attribute.group(1)] = attribute.group(3)
        else:
            kept.append(line)
    other_lines[:] = kept


def _apply_link_rules(
    topic: TopicData,
    problems: Problems,
    link_rules: bool,
    dropped: list[tuple[str, FormatError]],
) -> None:
    """Warn about each relation the workspace would refuse, or with `link_rules` drop it and
    add its error to `dropped` (Arg1 is the anaphor, Arg2 the antecedent)."""
    brat = topic.metadata.get(FORMAT, {})
    ids: list[str] = brat.get("relation_ids", [])
    tokens = topic.documents[0].tokens

    def describe(m: int) -> str:
        mention = topic.mentions[m]
        text = " ... ".join(" ".join(tokens[s : e + 1]) for s, e in mention.spans)
        return f"{mention.metadata[FORMAT]['id']} {text!r}"

    broken = link_problems(topic.links, topic.mentions, describe=describe, name=ids.__getitem__)
    for problem in broken:
        id_, field = ids[problem.index], "Arg1" if problem.side == "anaphor" else "Arg2"
        if link_rules:
            message = f"{problem.message}; {REFUSED} (rule {problem.rule})"
            dropped.append((id_, Problems(problems.file).error(id_, field, message)))
        else:
            problems.warn(id_, field, f"{problem.message}; {KEPT}")
    if link_rules and broken:
        gone = {problem.index for problem in broken}
        kept = [i for i in range(len(topic.links)) if i not in gone]
        topic.links = [topic.links[i] for i in kept]
        brat["relation_ids"] = [ids[i] for i in kept]
        brat["relation_names"] = [brat["relation_names"][i] for i in kept]
        if not topic.links:
            del brat["relation_ids"], brat["relation_names"]
        if not brat:
            topic.metadata.pop(FORMAT, None)


def _clusters(
    equivalences: list[Equivalence],
    mention_of: dict[str, int],
    mentions: list[MentionData],
    problems: Problems,
) -> tuple[list[ClusterData], dict[str, str]]:
    """Equivalence sets -> clusters; sets sharing a mention are one cluster (brat's sets are
    equivalences, hence transitive)."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    set_roots: list[tuple[int, str]] = []
    for type_, members, _number in equivalences:
        indices = [mention_of[m] for m in members]
        for index in indices[1:]:
            a, b = find(indices[0]), find(index)
            if a != b:
                parent[max(a, b)] = min(a, b)
        set_roots.append((indices[0], type_))
    keys: dict[int, str] = {}
    types: dict[str, str] = {}
    for first, type_ in set_roots:
        root = find(first)
        if root not in keys:
            keys[root] = str(len(keys) + 1)
            if type_ != DEFAULT_EQUIV_TYPE:
                types[keys[root]] = type_
        elif types.get(keys[root], DEFAULT_EQUIV_TYPE) != type_:
            problems.warn(
                None,
                "*",
                f"equivalences of types {type_} and {types.get(keys[root], DEFAULT_EQUIV_TYPE)} "
                "share a mention; merged",
            )
    for index in list(parent):
        mentions[index].cluster = keys[find(index)]
    clusters = [ClusterData(key) for key in keys.values()]
    return clusters, types


# --------------------------------------------------------------------------- writing


def write_brat(topics: Iterable[TopicData], folder: str | os.PathLike[str]) -> list[FormatWarning]:
    """Write each topic as ``<external_id>.txt`` + ``.ann`` in ``folder`` (a topic with several
    documents: one pair per document, ``<external_id>-<n>``). Returns warnings."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    problems = Problems(folder.name)
    for topic in topics:
        for name, text, ann in topic_to_brat(topic, problems):
            (folder / f"{name}.txt").write_text(text, encoding="utf-8")
            (folder / f"{name}.ann").write_text(ann, encoding="utf-8")
    return problems.warnings


def topic_to_brat(topic: TopicData, problems: Problems | None = None) -> list[tuple[str, str, str]]:
    """(file stem, text, annotations) for each document of the topic."""
    problems = problems or Problems("<brat>")
    stem = topic.external_id.replace("/", "_").replace(os.sep, "_")
    names = (
        [stem]
        if len(topic.documents) == 1
        else [f"{stem}-{d}" for d in range(len(topic.documents))]
    )
    brat: dict[str, Any] = topic.metadata.get(FORMAT, {})
    result = []
    entity_ids = _entity_ids(topic)
    for d, document in enumerate(topic.documents):
        text, offsets = _text(document, problems, names[d])
        lines = []
        for index, mention in enumerate(topic.mentions):
            if mention.document != d:
                continue
            fragments = [(offsets[start][0], offsets[end][1]) for start, end in mention.spans]
            where = ";".join(f"{start} {end}" for start, end in fragments)
            # A mention may run over a sentence (line) break; the text column stays on one line.
            words = " ".join(text[start:end] for start, end in fragments).replace("\n", " ")
            type_ = mention.metadata.get(FORMAT, {}).get("type", DEFAULT_ENTITY_TYPE)
            lines.append(f"{entity_ids[index]}\t{type_} {where}\t{words}")
        lines += _relation_lines(topic, d, entity_ids, brat, problems)
        lines += _equivalence_lines(topic, d, entity_ids, brat, problems)
        lines += brat.get("other_lines", []) if len(topic.documents) == 1 else []
        result.append((names[d], text, "".join(line + "\n" for line in lines)))
    if topic.relations:
        problems.warn(
            topic.external_id,
            "relations",
            "brat has no cluster hierarchy; the relations are not written",
        )
    return result


def _entity_ids(topic: TopicData) -> list[str]:
    """Each mention's brat id: the one it was read with where it is free, else the next number."""
    kept = [m.metadata.get(FORMAT, {}).get("id") for m in topic.mentions]
    used = {i for i in kept if i}
    taken: set[str] = set()
    numbers = [int(i[1:]) for i in used if i[1:].isdigit()]
    next_number = max(numbers, default=0) + 1
    ids = []
    for i in kept:
        if i and i not in taken:
            ids.append(i)
        else:
            while f"T{next_number}" in used:
                next_number += 1
            ids.append(f"T{next_number}")
            next_number += 1
        taken.add(ids[-1])
    return ids


def _text(
    document: DocumentData, problems: Problems, name: str
) -> tuple[str, list[tuple[int, int]]]:
    """One sentence per line, tokens joined by a space; character range of each token."""
    offsets: list[tuple[int, int]] = [(0, 0)] * len(document.tokens)
    lines, position = [], 0
    bounds = sorted(document.sentences) or [(0, len(document.tokens))]
    cuts, previous = [], 0
    for start, end in bounds:
        if start > previous:
            cuts.append((previous, start))
        cuts.append((start, end))
        previous = max(previous, end)
    if previous < len(document.tokens):
        cuts.append((previous, len(document.tokens)))
    for start, end in cuts:
        if start == end:
            continue
        words = []
        for t in range(start, end):
            token = document.tokens[t]
            if not token or any(c.isspace() for c in token):
                problems.warn(
                    name,
                    f"tokens[{t}]",
                    f"token {token!r} is empty or holds a space; it will not read back alike",
                )
            offsets[t] = (position, position + len(token))
            words.append(token)
            position += len(token) + 1
        lines.append(" ".join(words))
    return "".join(line + "\n" for line in lines), offsets


def _relation_lines(
    topic: TopicData, d: int, entity_ids: list[str], brat: dict[str, Any], problems: Problems
) -> list[str]:
    ids = brat.get("relation_ids", [])
    names = brat.get("relation_names", [])
    if len(ids) != len(topic.links):
        ids, names = [], []
    used = set(ids)
    number = 1
    lines = []
    # Note and attribute ids after those of the lines kept as they are.
    kept = brat.get("other_lines", [])
    notes = _numbers_after(kept, "#")
    attributes = _numbers_after(kept, "A")
    for index, link in enumerate(topic.links):
        anaphor, antecedent = topic.mentions[link.anaphor], topic.mentions[link.antecedent]
        if anaphor.document != d:
            continue
        if antecedent.document != d:
            problems.warn(
                topic.external_id,
                f"links[{index}]",
                "brat relations cannot cross files; not written",
            )
            continue
        if ids:
            id_, name = ids[index], names[index]
        else:
            while f"R{number}" in used:
                number += 1
            id_, name = f"R{number}", CHEMU_NAMES.get(link.type, link.type)
            used.add(id_)
        lines.append(
            f"{id_}\t{name} Arg1:{entity_ids[link.anaphor]} Arg2:{entity_ids[link.antecedent]}"
        )
        if link.note:
            if "\n" in link.note or "\t" in link.note:
                problems.warn(
                    topic.external_id,
                    f"links[{index}].note",
                    "a brat note is one line: its line breaks and tabs are written as spaces",
                )
            one_line = " ".join(link.note.split())
            lines.append(f"#{next(notes)}\tAnnotatorNotes {id_}\t{one_line}")
        for attribute, value in sorted(link.attributes.items()):
            lines.append(f"A{next(attributes)}\t{attribute} {id_} {value}")
    return lines


def _numbers_after(lines: list[str], prefix: str) -> Iterator[int]:
    """1, 2, ... past the largest ``<prefix><n>`` id among ``lines``."""
    taken = [
        int(match.group(1))
        for line in lines
        if (match := re.match(rf"^{re.escape(prefix)}(\d+)\t", line))
    ]
    return count(max(taken, default=0) + 1)


def _equivalence_lines(
    topic: TopicData, d: int, entity_ids: list[str], brat: dict[str, Any], problems: Problems
) -> list[str]:
    types = brat.get("equivalence_types", {})
    lines = []
    for key, members in topic.cluster_members().items():
        members = [m for m in members if topic.mentions[m].document == d]
        if len(members) > 1:
            type_ = types.get(key, DEFAULT_EQUIV_TYPE)
            lines.append(f"*\t{type_} " + " ".join(entity_ids[m] for m in members))
    if len(topic.documents) > 1 and topic.cluster_members():
        problems.warn(
            topic.external_id,
            "clusters",
            "brat equivalences cannot cross files; clusters split by document",
        )
    return lines
