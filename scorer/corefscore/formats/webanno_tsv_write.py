"""WebAnno TSV 3.3 writing (what INCEpTION imports): chains and span labels.

``write_webanno_tsv`` writes one ``<topic>.tsv`` per topic when every topic has one
document, else a folder ``<topic>/`` of ``<n>-<document>.tsv`` files per topic (what
``read_webanno_tsv_folders`` reads back topic by topic). Each cluster is a chain of the layer it
was read from (default DKPro Core's ``CoreferenceLink``), its links in the order read (else in
text order); an annotation that does not start and end on token boundaries inside one token
gets a sub-token row. Offsets are written in UTF-16 units, as INCEpTION counts them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from corefscore.corpus import TopicData
from corefscore.formats._io import PathOrStream, display_name
from corefscore.formats.cas_model import (
    REFERENCE_RELATION,
    REFERENCE_TYPE,
    CasDocument,
    Range,
)
from corefscore.formats.cas_topics import topic_to_documents
from corefscore.formats.errors import FormatWarning, Problems

_SPECIAL = "\\[]|_->;*"
_CHAIN_FEATURES = (REFERENCE_TYPE, REFERENCE_RELATION)


def escape(value: str) -> str:
    out = []
    for char in value:
        if char == "\t":
            out.append("\\t")
        elif char == "\n":
            out.append("\\n")
        elif char in _SPECIAL:
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def _text_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\t", "\\t")


def write_webanno_tsv(topics: Iterable[TopicData], path: PathOrStream) -> list[FormatWarning]:
    """Write each topic under the folder ``path``; return what could not be expressed."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError("WebAnno TSV is written to a folder")
    folder = Path(path)
    problems = Problems(display_name(path))
    topics = list(topics)
    # One topic of several documents makes every topic a folder, so that the -folders
    # format reads each back as one topic.
    as_folders = any(len(topic.documents) > 1 for topic in topics)
    for topic in topics:
        documents = topic_to_documents(topic, problems)
        if not as_folders:
            targets = [folder / f"{topic.external_id}.tsv"]
        else:
            width = len(str(len(documents)))
            targets = [
                folder / topic.external_id / f"{i:0{width}d}-{_safe(d.name)}.tsv"
                for i, d in enumerate(documents, start=1)
            ]
        for document, target in zip(documents, targets, strict=True):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(document_to_tsv(document), encoding="utf-8", newline="")
    return problems.warnings


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "document"


Cells = tuple[Range, int, list[str]]  # an annotation's range, first column, cell values


def document_to_tsv(document: CasDocument) -> str:
    layout = _Layout(document)
    spans, chains = layout.span_cells(), layout.chain_cells()
    rows = _rows(
        document.text, document.sentences, sorted(document.tokens), [a[0] for a in spans + chains]
    )
    cells = _cells(rows, spans, chains)
    ids = document.metadata.get("sentence_ids") or []
    out = [
        _sentence(document, number, sentence, members, rows, cells, layout.columns, ids)
        for number, (sentence, members) in enumerate(_by_sentence(document, rows), start=1)
    ]
    return "\n".join(layout.headers) + "\n\n\n" + "\n".join(out)


class _Layout:
    """The headers and columns: span layers (their features), then chain layers."""

    def __init__(self, document: CasDocument):
        self.document = document
        self.chain_layers = list(dict.fromkeys(chain.layer for chain in document.chains))
        self.span_layers = list(dict.fromkeys(span.layer for span in document.spans))
        self.headers = ["#FORMAT=WebAnno TSV 3.3"]
        self.span_features: dict[str, list[str]] = {}
        for layer in self.span_layers:
            names = [n for n in document.layers.get(layer, []) if n]
            for span in document.spans:
                if span.layer == layer:
                    names += [n for n in span.features if n not in names]
            self.span_features[layer] = names
            self.headers.append(f"#T_SP={layer}|{'|'.join(names)}")
        self.chain_order: dict[str, list[str]] = {}
        for layer in self.chain_layers:
            kept = document.layers.get(layer, [])
            order = kept if sorted(kept) == sorted(_CHAIN_FEATURES) else list(_CHAIN_FEATURES)
            self.chain_order[layer] = order
            self.headers.append(f"#T_CH={layer}|{'|'.join(order)}")
        self.span_columns = sum(max(len(self.span_features[la]), 1) for la in self.span_layers)
        self.columns = self.span_columns + 2 * len(self.chain_layers)

    def span_cells(self) -> list[Cells]:
        annotations: list[Cells] = []
        offset = 0
        for layer in self.span_layers:
            names = self.span_features[layer]
            for span in self.document.spans:
                if span.layer == layer:
                    values = [
                        escape(span.features[n]) if span.features.get(n) is not None else "*"
                        for n in names
                    ] or ["*"]
                    annotations.append(((span.begin, span.end), offset, values))
            offset += max(len(names), 1)
        return annotations

    def chain_cells(self) -> list[Cells]:
        cells: list[Cells] = []
        offset, number = self.span_columns, 0
        for layer in self.chain_layers:
            for chain in (c for c in self.document.chains if c.layer == layer):
                number += 1
                for position, link in enumerate(chain.links, start=1):
                    type_ = link.features.get(REFERENCE_TYPE)
                    relation = link.features.get(REFERENCE_RELATION)
                    by_feature = {
                        REFERENCE_TYPE: f"{escape(type_) if type_ else '*'}[{number}]",
                        REFERENCE_RELATION: f"{escape(relation) if relation else '*'}"
                        f"->{number}-{position}",
                    }
                    values = [by_feature[f] for f in self.chain_order[layer]]
                    cells.append(((link.begin, link.end), offset, values))
            offset += 2
        return cells


def _cells(
    rows: list[tuple[int, int, bool]], spans: list[Cells], chains: list[Cells]
) -> dict[tuple[int, int], list[str]]:
    """(row, column) -> the values written there; a span annotation on several rows, or
    stacked with another of its layer, is numbered (``VALUE[n]``)."""
    cells: dict[tuple[int, int], list[str]] = {}
    span_count = 0
    for range_, first, values in spans:
        covered = _covered(rows, range_)
        stacked = any(
            other is not values and other_first == first and _overlap(other_range, range_)
            for other_range, other_first, other in spans
        )
        suffix = ""
        if len(covered) > 1 or stacked:
            span_count += 1
            suffix = f"[{span_count}]"
        for row in covered:
            for i, value in enumerate(values):
                cells.setdefault((row, first + i), []).append(value + suffix)
    for range_, first, values in chains:
        for row in _covered(rows, range_):
            for i, value in enumerate(values):
                cells.setdefault((row, first + i), []).append(value)
    return cells


def _sentence(
    document: CasDocument,
    number: int,
    sentence: Range,
    members: list[int],
    rows: list[tuple[int, int, bool]],
    cells: dict[tuple[int, int], list[str]],
    columns: int,
    ids: list[str],
) -> str:
    text = document.text
    lines = []
    if number - 1 < len(ids) and ids[number - 1]:
        lines.append(f"#Sentence.id={ids[number - 1]}")
    lines += [f"#Text={_text_escape(part)}" for part in text[slice(*sentence)].split("\n")]
    token_number = sub_number = 0
    for row_index in members:
        begin, end, is_token = rows[row_index]
        if is_token:
            token_number, sub_number = token_number + 1, 0
            row_id = f"{number}-{token_number}"
        else:
            sub_number += 1
            row_id = f"{number}-{token_number}.{sub_number}"
        values = ["|".join(cells.get((row_index, c), ["_"])) for c in range(columns)]
        offsets = f"{_utf16(text, begin)}-{_utf16(text, end)}"
        lines.append("\t".join([row_id, offsets, text[begin:end], *values]) + "\t")
    return "\n".join(lines) + "\n"


def _utf16(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-16-le")) // 2


def _overlap(a: Range, b: Range) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _rows(
    text: str, sentences: list[Range], tokens: list[Range], ranges: list[Range]
) -> list[tuple[int, int, bool]]:
    """Token rows and, after each token, a sub-token row for each part of an annotation
    inside it that does not start and end on its boundaries."""
    rows: list[tuple[int, int, bool]] = []
    for token in tokens:
        rows.append((*token, True))
        parts = {_part(r, token) for r in ranges if _overlap(r, token)}
        rows += [(a, b, False) for a, b in sorted(parts) if (a, b) != token]
    return rows


def _part(range_: Range, token: Range) -> Range:
    return (max(range_[0], token[0]), min(range_[1], token[1]))


def _covered(rows: list[tuple[int, int, bool]], range_: Range) -> list[int]:
    """The rows an annotation is written on: the tokens it covers whole, the sub-token rows
    of the parts of tokens it covers."""
    covered = []
    token: Range | None = None
    for index, (a, b, is_token) in enumerate(rows):
        if is_token:
            token = (a, b)
            if _overlap(token, range_) and _part(range_, token) == token:
                covered.append(index)
        elif token is not None and _overlap(token, range_) and _part(range_, token) == (a, b):
            covered.append(index)
    return covered


def _by_sentence(
    document: CasDocument, rows: list[tuple[int, int, bool]]
) -> list[tuple[Range, list[int]]]:
    sentences = sorted(document.sentences) or [(0, len(document.text))]
    grouped: list[tuple[Range, list[int]]] = [(s, []) for s in sentences]
    for index, (begin, _, _) in enumerate(rows):
        for sentence, members in grouped:
            if sentence[0] <= begin < max(sentence[1], sentence[0] + 1):
                members.append(index)
                break
    return grouped
