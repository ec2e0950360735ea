"""WebAnno TSV 3.x (INCEpTION's tab-separated export): reading. Writing: ``webanno_tsv_write``.

Layout (INCEpTION's "WebAnno TSV 3.3" documentation): a ``#FORMAT=WebAnno TSV 3.x`` line,
then one header per layer (``#T_SP=`` span, ``#T_CH=`` chain, ``#T_RL=`` relation layer and
its feature names, ``|``-separated), then sentences: optional ``#Sentence.id=``, one or more
``#Text=`` lines, and one row per token (``1-3``) or sub-token (``1-3.1``): id, UTF-16
character offsets ``begin-end``, the token, then one column per feature. A column's
annotations are ``|``-separated (stacked); ``VALUE[n]`` ties the rows of one multi-row
annotation; ``*`` is an annotation without a value and ``_`` none. Chains: a
``referenceType`` column ``TYPE[chain]`` and a ``referenceRelation`` column
``REL->chain-link``. Relations: their features, then the governor's row (``1-2``, with
``[governor_dependent]`` annotation numbers when needed); the row holding it is the dependent.

Mapping to TopicData: :mod:`cas_topics`. One file is one document; ``read_webanno_tsv``
makes each file a topic (id = file stem), ``read_webanno_tsv_folders`` each folder of files
one topic (id = folder name, documents in file-name order).

Refused (errors, nothing read from that file): not a TSV 3 file; rows with the wrong number
of columns or bad offsets; a chain whose link numbers have a gap (a link it points to is
missing); slot features (``ROLE_`` columns) holding values, which nothing
here can carry; and what :mod:`cas_topics` refuses (zero-width chain links, a span twice a
link of one chain). Stacked chains (one span a link of several) are read: :mod:`cas_topics`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from corefscore.corpus import TopicData
from corefscore.formats._io import PathOrStream, display_name, open_text
from corefscore.formats.cas_model import (
    REFERENCE_RELATION,
    REFERENCE_TYPE,
    TOKEN,
    CasChain,
    CasDocument,
    CasLink,
    CasRelation,
    CasSpan,
    Range,
)
from corefscore.formats.cas_topics import documents_to_topic
from corefscore.formats.errors import FormatErrors, ImportReport, Problems, Skipped

FORMAT_LINE = re.compile(r"#FORMAT=WebAnno TSV 3(\.\d+)?\s*$")
_ID = re.compile(r"^(\d+)-(\d+)(?:\.(\d+))?$")
_OFFSETS = re.compile(r"^(\d+)-(\d+)$")
_CHAIN_REL = re.compile(r"^(.*)->(\d+)-(\d+)$", re.DOTALL)
_SUFFIX = re.compile(r"^(.*)\[(\d+)\]$", re.DOTALL)
_TARGET = re.compile(r"^(\d+-\d+(?:\.\d+)?)(?:\[(\d+)_(\d+)\])?$")
_ESCAPES = {"t": "\t", "n": "\n"}


@dataclass
class _Column:
    kind: str  # "SP", "CH", "RL"
    layer: str
    feature: str
    role: str = ""  # "slot" (a ROLE_ column), "target" (the slot's filler type), "base" (RL)


@dataclass
class _Row:
    line: int
    id: str
    range: Range  # UTF-16 offsets until converted
    form: str
    values: list[str]


@dataclass
class _Sentence:
    text: str
    rows: list[_Row] = field(default_factory=list)
    id: str | None = None


def unescape(value: str) -> str:
    out: list[str] = []
    chars = iter(value)
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            out.append(_ESCAPES.get(following, following))
        else:
            out.append(char)
    return "".join(out)


def split_unescaped(value: str, separator: str) -> list[str]:
    parts, current, escaped = [], [], False
    for char in value:
        if escaped:
            current.append("\\" + char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == separator:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current) + ("\\" if escaped else ""))
    return parts


def _suffixed(element: str) -> tuple[str, int | None]:
    """``VALUE[3]`` -> (``VALUE``, 3); the bracket of an escaped ``\\]`` is not a suffix."""
    match = _SUFFIX.match(element)
    if match and not match.group(1).endswith("\\"):
        return match.group(1), int(match.group(2))
    return element, None


def _value(raw: str) -> str | None:
    return None if raw == "*" else unescape(raw)


def looks_like_tsv(head: str) -> bool:
    return FORMAT_LINE.match(head.split("\n", 1)[0].strip("\ufeff")) is not None


def parse_tsv(text: str, name: str, problems: Problems) -> CasDocument | None:
    lines = text.split("\n")
    if not lines or not looks_like_tsv(lines[0]):
        problems.error(
            1, None, "not WebAnno TSV 3: the first line is not '#FORMAT=WebAnno TSV 3.x'"
        )
        return None
    columns: list[_Column] = []
    layers: dict[str, list[str]] = {}
    sentences: list[_Sentence] = []
    in_text = False
    pending_id: str | None = None
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip("\r")
        if line.startswith(("#T_SP=", "#T_CH=", "#T_RL=")):
            kind, parts = line[3:5], line[6:].split("|")
            layer, features = parts[0], parts[1:] or [""]
            layers[layer] = [f for f in features if f and not f.startswith("BT_")]
            columns += _header_columns(kind, layer, features)
            continue
        if line.startswith("#Sentence.id="):
            pending_id = line[len("#Sentence.id=") :]
            continue
        if line.startswith("#Text="):
            content = unescape(line[len("#Text=") :])
            if in_text:
                sentences[-1].text += "\n" + content
            else:
                sentences.append(_Sentence(content, id=pending_id))
                pending_id = None
                in_text = True
            continue
        if not line.strip() or line.startswith("#"):
            in_text = False
            continue
        in_text = False
        row = _parse_row(line, number, len(columns), problems)
        if row is None:
            continue
        if not sentences:
            problems.error(number, None, "a token row before any #Text= line")
            continue
        sentences[-1].rows.append(row)
    if problems.errors:
        return None
    return _document(name, sentences, columns, layers, problems)


def _header_columns(kind: str, layer: str, features: list[str]) -> list[_Column]:
    columns = []
    slot_target = False
    for feature in features:
        if slot_target:
            columns.append(_Column(kind, layer, feature, "target"))
            slot_target = False
        elif feature.startswith("ROLE_"):
            columns.append(_Column(kind, layer, feature, "slot"))
            slot_target = True
        elif feature.startswith("BT_"):
            columns.append(_Column(kind, layer, feature[3:], "base"))
        else:
            columns.append(_Column(kind, layer, feature))
    return columns


def _parse_row(line: str, number: int, width: int, problems: Problems) -> _Row | None:
    cells = line.split("\t")
    if cells and cells[-1] == "":
        cells = cells[:-1]
    if len(cells) != 3 + width:
        problems.error(
            number,
            None,
            f"{len(cells)} columns where the headers declare {3 + width} (id, offsets, token "
            f"and {width} feature column(s))",
        )
        return None
    id_match, offsets = _ID.match(cells[0]), _OFFSETS.match(cells[1])
    if id_match is None or offsets is None:
        problems.error(number, None, f"bad token id or offsets: {cells[0]!r} {cells[1]!r}")
        return None
    begin, end = int(offsets.group(1)), int(offsets.group(2))
    if end < begin:
        problems.error(number, "offsets", f"{cells[1]} ends before it begins")
        return None
    return _Row(number, cells[0], (begin, end), unescape(cells[2]), cells[3:])


def _document(
    name: str,
    sentences: list[_Sentence],
    columns: list[_Column],
    layers: dict[str, list[str]],
    problems: Problems,
) -> CasDocument | None:
    text, to_cp = _text(sentences, problems)
    rows = [row for sentence in sentences for row in sentence.rows]
    if not problems.errors:
        _code_points(rows, to_cp, problems)
    if problems.errors:
        return None
    document = CasDocument(name=name, text=text, layers=layers)
    document.tokens = [row.range for row in rows if "." not in row.id]
    for sentence in sentences:
        tokens = [row.range for row in sentence.rows if "." not in row.id]
        if tokens:
            document.sentences.append((tokens[0][0], tokens[-1][1]))
    ids = [s.id for s in sentences]
    if any(ids):
        document.metadata["sentence_ids"] = ids
    by_id = {row.id: row for row in rows}
    spans: dict[tuple[str, object], CasSpan] = {}
    chains: dict[tuple[str, int], dict[int, CasLink]] = {}
    relations: list[tuple[_Row, int, list[str]]] = []
    for group in _layer_groups(columns):
        first = columns[group[0]]
        for row in rows:
            cells = [row.values[i] for i in group]
            if all(c == "_" for c in cells):
                continue
            if first.kind == "SP":
                _span_cells(row, [columns[i] for i in group], cells, spans, problems)
            elif first.kind == "CH":
                _chain_cells(row, [columns[i] for i in group], cells, chains, problems)
            else:
                relations.append((row, group[0], cells))
    _missing_links(chains, problems)
    if problems.errors:
        return None
    for layer_chain, links in sorted(chains.items(), key=lambda item: item[0][1]):
        document.chains.append(CasChain(layer_chain[0], [links[k] for k in sorted(links)]))
    document.spans = list(spans.values())
    for row, start, cells in relations:
        relation = _relation(row, columns[start : start + len(cells)], cells, spans, by_id)
        if relation is None:
            problems.error(row.line, columns[start].layer, "a relation end cannot be found")
        else:
            document.relations.append(relation)
    return None if problems.errors else document


def _missing_links(chains: dict[tuple[str, int], dict[int, CasLink]], problems: Problems) -> None:
    """A chain's links are numbered 1, 2, ... (INCEpTION writes them so): a number missing is
    a link the chain points to and the file lacks, and reading on would silently join the
    links around it. Refused at the first link after the gap."""
    for (_, chain), links in chains.items():
        numbers = sorted(links)
        for expected, number in enumerate(numbers, start=1):
            if number != expected:
                after = f"link {expected - 1}" if expected > 1 else "its start"
                problems.error(
                    links[number].line,
                    REFERENCE_RELATION,
                    f"chain {chain} goes from {after} to link {number}: link {expected} "
                    f"({chain}-{expected}) is missing",
                )
                break


def _code_points(rows: list[_Row], to_cp: list[int], problems: Problems) -> None:
    """Each row's UTF-16 offsets (as INCEpTION counts) as code point offsets."""
    for row in rows:
        begin, end = row.range
        if end >= len(to_cp) or to_cp[begin] < 0 or to_cp[end] < 0:
            problems.error(row.line, "offsets", f"{begin}-{end} is outside the sentence texts")
        else:
            row.range = (to_cp[begin], to_cp[end])


def _layer_groups(columns: list[_Column]) -> list[list[int]]:
    """The column indices of each layer, in header order."""
    groups: list[list[int]] = []
    for index, column in enumerate(columns):
        previous = columns[groups[-1][0]] if groups else None
        if previous is not None and (previous.layer, previous.kind) == (column.layer, column.kind):
            groups[-1].append(index)
        else:
            groups.append([index])
    return groups


def _text(sentences: list[_Sentence], problems: Problems) -> tuple[str, list[int]]:
    """The document text (each sentence where its tokens say, gaps as spaces) and a map from
    UTF-16 offsets to code point offsets (-1 inside a surrogate pair)."""
    parts: list[str] = []
    length16 = 0
    for sentence in sentences:
        tokens = [row for row in sentence.rows if "." not in row.id]
        start16 = length16
        if tokens:
            first = tokens[0]
            form_at = sentence.text.find(first.form)
            before = sentence.text[: max(form_at, 0)]
            start16 = first.range[0] - _utf16_len(before)
        if start16 < length16:
            problems.error(
                tokens[0].line if tokens else None, "offsets", "sentences overlap or go back"
            )
            continue
        parts.append(" " * (start16 - length16))
        parts.append(sentence.text)
        length16 = start16 + _utf16_len(sentence.text)
    text = "".join(parts)
    to_cp: list[int] = []
    for position, char in enumerate(text):
        to_cp.append(position)
        if ord(char) > 0xFFFF:
            to_cp.append(-1)
    to_cp.append(len(text))
    return text, to_cp


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _span_cells(
    row: _Row,
    group: list[_Column],
    cells: list[str],
    spans: dict[tuple[str, object], CasSpan],
    problems: Problems,
) -> None:
    layer = group[0].layer
    split = [split_unescaped(c, "|") if c != "_" else [] for c in cells]
    for position in range(max(len(s) for s in split)):
        features: dict[str, str] = {}
        number: int | None = None
        for column, elements in zip(group, split, strict=True):
            if position >= len(elements):
                continue
            raw, suffix = _suffixed(elements[position])
            number = suffix if suffix is not None else number
            if column.role == "target":
                continue
            if column.role == "slot":
                if raw not in ("_", "*", ""):
                    problems.error(
                        row.line,
                        column.feature,
                        f"slot feature {column.feature} of {layer} holds {raw!r}: slot "
                        "features cannot be carried; remove them from the layer or the export",
                    )
                continue
            value = _value(raw)
            if column.feature and value is not None:
                features[column.feature] = value
        key: tuple[str, object] = (
            (layer, number) if number is not None else (layer, (row.id, position))
        )
        if key in spans:
            span = spans[key]
            span.begin, span.end = min(span.begin, row.range[0]), max(span.end, row.range[1])
        else:
            spans[key] = CasSpan(layer, row.range[0], row.range[1], features)


def _chain_cells(
    row: _Row,
    group: list[_Column],
    cells: list[str],
    chains: dict[tuple[str, int], dict[int, CasLink]],
    problems: Problems,
) -> None:
    layer = group[0].layer
    by_feature = {
        column.feature: split_unescaped(cell, "|") if cell != "_" else []
        for column, cell in zip(group, cells, strict=True)
    }
    relations = by_feature.get(REFERENCE_RELATION, [])
    types = by_feature.get(REFERENCE_TYPE, [])
    for position, element in enumerate(relations):
        match = _CHAIN_REL.match(element)
        if match is None:
            problems.error(row.line, REFERENCE_RELATION, f"{element!r} is not REL->chain-link")
            continue
        chain, link = int(match.group(2)), int(match.group(3))
        features: dict[str, str] = {}
        relation = _value(match.group(1))
        if relation is not None:
            features[REFERENCE_RELATION] = relation
        if position < len(types):
            type_value = _value(_suffixed(types[position])[0])
            if type_value is not None:
                features[REFERENCE_TYPE] = type_value
        links = chains.setdefault((layer, chain), {})
        if link in links:
            found = links[link]
            found.begin, found.end = min(found.begin, row.range[0]), max(found.end, row.range[1])
        else:
            links[link] = CasLink(row.range[0], row.range[1], features, line=row.line)


def _relation(
    row: _Row,
    group: list[_Column],
    cells: list[str],
    spans: dict[tuple[str, object], CasSpan],
    by_id: dict[str, _Row],
) -> CasRelation | None:
    base = next((c for c in group if c.role == "base"), None)
    if base is None:
        return None
    features: dict[str, str] = {}
    for column, cell in zip(group, cells, strict=True):
        if column.role == "base" or cell == "_":
            continue
        value = _value(split_unescaped(cell, "|")[0])
        if column.feature and value is not None:
            features[column.feature] = value
    target = split_unescaped(cells[group.index(base)], "|")[0]
    match = _TARGET.match(target)
    if match is None or match.group(1) not in by_id:
        return None
    governor_row = by_id[match.group(1)]
    governor_number = int(match.group(2)) if match.group(2) else 0
    dependent_number = int(match.group(3)) if match.group(3) else 0

    def end(found_row: _Row, number: int) -> Range | None:
        if number:
            span = spans.get((base.feature, number))
            return (span.begin, span.end) if span else None
        if base.feature != TOKEN:
            on_row = [
                s
                for k, s in spans.items()
                if k[0] == base.feature and s.begin <= found_row.range[0] < s.end + 1
            ]
            if on_row:
                return (on_row[0].begin, on_row[0].end)
        return found_row.range

    governor, dependent = end(governor_row, governor_number), end(row, dependent_number)
    if governor is None or dependent is None:
        return None
    return CasRelation(group[0].layer, governor, dependent, features)


# --------------------------------------------------------------------------- files


def read_webanno_tsv(path_or_stream: PathOrStream, *, skip_invalid: bool = False) -> ImportReport:
    """A ``.tsv`` file as one topic (id = its stem), or every ``.tsv`` file of a folder (at
    any depth, in path order), one topic each. A file is one record."""
    if isinstance(path_or_stream, (str, os.PathLike)) and Path(path_or_stream).is_dir():
        files = sorted(Path(path_or_stream).rglob("*.tsv"))
        return _read_topics([[file] for file in files], skip_invalid)
    return _read_topics([[path_or_stream]], skip_invalid)


def read_webanno_tsv_folders(
    path_or_stream: PathOrStream, *, skip_invalid: bool = False
) -> ImportReport:
    """Every folder holding ``.tsv`` files (the given one included) as one topic, id = the
    folder's name, its files the documents in name order. A folder is one record."""
    if not (isinstance(path_or_stream, (str, os.PathLike)) and Path(path_or_stream).is_dir()):
        return read_webanno_tsv(path_or_stream, skip_invalid=skip_invalid)
    folders: dict[Path, list[PathOrStream]] = {}
    for file in sorted(Path(path_or_stream).rglob("*.tsv")):
        folders.setdefault(file.parent, []).append(file)
    return _read_topics(list(folders.values()), skip_invalid, by_folder=True)


def _read_topics(
    groups: Iterable[list[PathOrStream]], skip_invalid: bool, by_folder: bool = False
) -> ImportReport:
    report = ImportReport()
    for group in groups:
        first = group[0]
        file = display_name(first)
        if by_folder and isinstance(first, (str, os.PathLike)):
            topic_id = Path(first).parent.name
        else:
            topic_id = Path(file).stem if file != "<stream>" else "webanno"
        problems = Problems(Path(first).parent.name if by_folder else file)  # type: ignore[arg-type]
        documents = []
        for path in group:
            with open_text(path) as stream:
                text = stream.read()
            name = display_name(path)
            sub = Problems(name)
            document = parse_tsv(text, Path(name).stem, sub)
            problems.errors += sub.errors
            problems.warnings += sub.warnings
            if document is not None:
                documents.append(document)
        topic: TopicData | None = None
        if not problems.errors:
            topic = documents_to_topic(topic_id, documents, problems)
        report.errors += problems.errors
        report.warnings += problems.warnings
        if problems.errors:
            report.skipped.append(Skipped(problems.file, None, tuple(problems.errors)))
        elif topic is not None:
            report.topics.append(topic)
    if report.errors and not skip_invalid:
        raise FormatErrors(report.errors, report)
    return report
