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

from annotation.domain.corpus import TopicData
from annotation.domain.formats._io import PathOrStream, display_name
from annotation.domain.formats.cas_model import (
    REFERENCE_RELATION,
    REFERENCE_TYPE,
    CasDocument,
    Range,
)
from annotation.domain.formats.cas_topics import topic_to_documents
from annotation.domain.formats.errors import FormatWarning, Problems

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


def document_to_tsv(document: CasDocument) -> str:
    text = document.text
    # Annotations as (layer, kind, range, values per column), in layer order.
    chain_layers = list(dict.fromkeys(chain.layer for chain in document.chains))
    span_layers = list(dict.fromkeys(span.layer for span in document.spans))
    headers = ["#FORMAT=WebAnno TSV 3.3"]
    span_features: dict[str, list[str]] = {}
    for layer in span_layers:
        names = [n for n in document.layers.get(layer, []) if n]
        for span in document.spans:
            if span.layer == layer:
                names += [n for n in span.features if n not in names]
        span_features[layer] = names
        headers.append(f"#T_SP={layer}|{'|'.join(names)}")
    chain_order: dict[str, list[str]] = {}
    for layer in chain_layers:
        kept = document.layers.get(layer, [])
        order = kept if sorted(kept) == sorted(_CHAIN_FEATURES) else list(_CHAIN_FEATURES)
        chain_order[layer] = order
        headers.append(f"#T_CH={layer}|{'|'.join(order)}")
    token_ranges = sorted(document.tokens)
    # Every annotation: its range, and its cells per column; numbered when on several rows.
    columns = sum(max(len(span_features[layer]), 1) for layer in span_layers) + 2 * len(
        chain_layers
    )
    annotations: list[tuple[Range, int, list[str]]] = []  # range, first column, raw cells
    offset = 0
    for layer in span_layers:
        names = span_features[layer]
        for span in document.spans:
            if span.layer == layer:
                values = [
                    escape(span.features[n]) if span.features.get(n) is not None else "*"
                    for n in names
                ] or ["*"]
                annotations.append(((span.begin, span.end), offset, values))
        offset += max(len(names), 1)
    chain_cells: list[tuple[Range, int, list[str]]] = []
    number = 0
    for layer in chain_layers:
        for chain in (c for c in document.chains if c.layer == layer):
            number += 1
            for position, link in enumerate(chain.links, start=1):
                type_ = link.features.get(REFERENCE_TYPE)
                relation = link.features.get(REFERENCE_RELATION)
                by_feature = {
                    REFERENCE_TYPE: f"{escape(type_) if type_ else '*'}[{number}]",
                    REFERENCE_RELATION: f"{escape(relation) if relation else '*'}"
                    f"->{number}-{position}",
                }
                chain_cells.append(
                    ((link.begin, link.end), offset, [by_feature[f] for f in chain_order[layer]])
                )
        offset += 2
    rows = _rows(text, document.sentences, token_ranges, [a[0] for a in annotations + chain_cells])
    cells: dict[tuple[int, int], list[str]] = {}
    span_count = 0
    for range_, first, values in annotations:
        covered = _covered(rows, range_)
        stacked = any(
            other is not values and other_first == first and _overlap(other_range, range_)
            for other_range, other_first, other in annotations
        )
        suffix = ""
        if len(covered) > 1 or stacked:
            span_count += 1
            suffix = f"[{span_count}]"
        for row in covered:
            for i, value in enumerate(values):
                cells.setdefault((row, first + i), []).append(value + suffix)
    for range_, first, values in chain_cells:
        for row in _covered(rows, range_):
            for i, value in enumerate(values):
                cells.setdefault((row, first + i), []).append(value)
    out: list[str] = []
    ids = document.metadata.get("sentence_ids") or []
    for number, (sentence, sentence_rows) in enumerate(_by_sentence(document, rows), start=1):
        lines = []
        if number - 1 < len(ids) and ids[number - 1]:
            lines.append(f"#Sentence.id={ids[number - 1]}")
        lines += [f"#Text={_text_escape(part)}" for part in text[slice(*sentence)].split("\n")]
        token_number = 0
        sub_number = 0
        for row_index in sentence_rows:
            begin, end, is_token = rows[row_index]
            if is_token:
                token_number += 1
                sub_number = 0
                row_id = f"{number}-{token_number}"
            else:
                sub_number += 1
                row_id = f"{number}-{token_number}.{sub_number}"
            values = ["|".join(cells.get((row_index, c), ["_"])) for c in range(columns)]
            lines.append(
                "\t".join(
                    [
                        row_id,
                        f"{_utf16(text, begin)}-{_utf16(text, end)}",
                        text[begin:end],
                        *values,
                    ]
                )
                + "\t"
            )
        out.append("\n".join(lines) + "\n")
    return "\n".join(headers) + "\n\n\n" + "\n".join(out)


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
