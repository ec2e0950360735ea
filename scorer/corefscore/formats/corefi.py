"""CoRefi JSON (github ariecattan/CoRefi): one annotation task per file.

A file: ``tokens``, a flat list of ``{"i", "document", "paragraph"?, "doc_name"?, "text"}``
(``i`` is the global token index); ``mentions``, ``{"start", "end", "clustId"?, "first"?}``
with inclusive global token indices; and flags and task data (``mode``, ``fixableSpans``,
``newMentions``, ``reassignable``, ``hypernym``, ``clusterName``, ``selectedCluster``,
``clustersDesc``, ``goldMentions``, ``tourSteps``, ``snackbarTimeout``...).

Mapping: one file -> one topic (external id: the file's ``id`` if it has one, else the file
stem); each ``(document, paragraph)`` run of tokens -> one :class:`DocumentData` (doc_id =
``doc_name`` or the document number; ``document``/``paragraph``/``doc_name`` kept in its
metadata); global offsets -> offsets in that document; ``clustId`` -> cluster key;
``clustersDesc`` texts -> cluster labels. Everything else (flags, task data, per-mention
extras such as ``first``) is kept in ``TopicData.metadata["corefi"]`` and
``MentionData.metadata`` so the writer gives back an equal JSON document.

Errors name a JSON path as the record (``mentions[3]``) and the key as the field (``end``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from corefscore.corpus import ClusterData, TopicData
from corefscore.formats._io import PathOrStream, display_name, open_text
from corefscore.formats.corefi_parser import (
    FORMAT,
    TOKEN_FIELDS,
    check_references,
    parse_documents,
    parse_labels,
    parse_mentions,
)
from corefscore.formats.errors import (
    FormatErrors,
    FormatWarning,
    ImportReport,
    Problems,
    Skipped,
)

MENTION_FIELDS = ("start", "end", "first", "clustId")


# --------------------------------------------------------------------------- reading


def read_corefi(path_or_stream: PathOrStream, *, skip_invalid: bool = False) -> ImportReport:
    """A CoRefi file, or every ``*.json`` file of a folder (in name order), one topic each."""
    if isinstance(path_or_stream, (str, os.PathLike)) and Path(path_or_stream).is_dir():
        return read_corefi_files(
            sorted(Path(path_or_stream).glob("*.json")), skip_invalid=skip_invalid
        )
    return read_corefi_json(path_or_stream, skip_invalid=skip_invalid)


def read_corefi_json(path_or_stream: PathOrStream, *, skip_invalid: bool = False) -> ImportReport:
    """Read one CoRefi file as one topic. A file is one record: with ``skip_invalid`` an
    invalid file is listed in ``skipped`` and no topic is returned."""
    file = display_name(path_or_stream)
    problems = Problems(file)
    with open_text(path_or_stream) as stream:
        text = stream.read()
    stem = Path(file).stem if file != "<stream>" else "corefi"
    topic = _parse(text, stem, problems)
    report = ImportReport(errors=problems.errors, warnings=problems.warnings)
    if problems.errors:
        if not skip_invalid:
            raise FormatErrors(problems.errors, report)
        report.skipped.append(Skipped(file, None, tuple(problems.errors)))
    elif topic is not None:
        report.topics.append(topic)
    return report


def read_corefi_files(paths: Iterable[PathOrStream], *, skip_invalid: bool = False) -> ImportReport:
    """Several CoRefi files, one topic each; every file is checked before anything is raised."""
    report = ImportReport()
    for path in paths:
        report.extend(read_corefi_json(path, skip_invalid=True))
    if report.errors and not skip_invalid:
        raise FormatErrors(report.errors, report)
    return report


def _parse(text: str, stem: str, problems: Problems) -> TopicData | None:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.error(
            None, None, f"malformed JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        )
        return None
    if not isinstance(obj, dict):
        problems.error(None, None, "a CoRefi file must hold a JSON object")
        return None
    for name in ("tokens", "mentions"):
        if not isinstance(obj.get(name), list):
            problems.error(name, None, "missing" if name not in obj else "must be a list")
    if problems.errors:
        return None
    documents, token_place = parse_documents(obj["tokens"], problems)
    if documents is None:
        return None
    corefi: dict[str, Any] = {"fields": list(obj)}
    token_fields = list(dict.fromkeys(key for token in obj["tokens"] for key in token))
    if token_fields != [f for f in TOKEN_FIELDS if f in token_fields]:
        corefi["token_fields"] = token_fields
    mentions = parse_mentions(obj["mentions"], token_place, problems)
    cluster_keys = list(dict.fromkeys(m.cluster for m in mentions if m.cluster is not None))
    labels = parse_labels(obj.get("clustersDesc"), problems)
    check_references(obj, set(cluster_keys), len(token_place), problems)
    extra = {key: value for key, value in obj.items() if key not in ("tokens", "mentions")}
    if extra:
        corefi["extra"] = extra
    topic_id = obj.get("id")
    if problems.errors:
        return None
    return TopicData(
        external_id=str(topic_id) if topic_id is not None else stem,
        documents=documents,
        mentions=mentions,
        clusters=[ClusterData(key, label=labels.get(key)) for key in cluster_keys],
        metadata={FORMAT: corefi},
    )


def is_seed(topic: TopicData) -> bool:
    """Whether a CoRefi topic's clusters are a seed, not gold: its file leaves some mention
    without a ``clustId``. CoRefi's annotation mode hands the annotator a file whose only
    cluster id marks the cluster to complete (``selectedCluster``), a starting point; its
    onboarding files give every mention its gold cluster. So the rule: gold only when every
    mention carries a cluster id (docs/formats.md, "CoRefi")."""
    clustered = sum(1 for mention in topic.mentions if mention.cluster is not None)
    return 0 < clustered < len(topic.mentions)


# --------------------------------------------------------------------------- writing


def write_corefi(topics: Iterable[TopicData], path_or_stream: PathOrStream) -> list[FormatWarning]:
    """One topic to a ``.json`` path or a stream; otherwise one file per topic in the folder."""
    topics = list(topics)
    if not isinstance(path_or_stream, (str, os.PathLike)) or Path(path_or_stream).suffix == ".json":
        if len(topics) != 1:
            raise ValueError(f"a CoRefi file holds one topic, not {len(topics)}; give a folder")
        return write_corefi_json(topics[0], path_or_stream)
    return write_corefi_files(topics, path_or_stream)


def write_corefi_json(topic: TopicData, path_or_stream: PathOrStream) -> list[FormatWarning]:
    """Write one topic as a CoRefi file (indented like CoRefi's examples); returns warnings
    (CoRefi has no discontinuous mentions and no hierarchy edges in its input files)."""
    problems = Problems(display_name(path_or_stream))
    obj = topic_to_corefi(topic, problems)
    with open_text(path_or_stream, "w") as stream:
        stream.write(json.dumps(obj, indent=4, ensure_ascii=False) + "\n")
    return problems.warnings


def write_corefi_files(
    topics: Iterable[TopicData], folder: str | os.PathLike[str]
) -> list[FormatWarning]:
    """One ``<external_id>.json`` per topic in ``folder``."""
    warnings: list[FormatWarning] = []
    for topic in topics:
        warnings += write_corefi_json(topic, Path(folder) / f"{topic.external_id}.json")
    return warnings


def topic_to_corefi(topic: TopicData, problems: Problems | None = None) -> dict[str, Any]:
    problems = problems or Problems("<corefi>")
    corefi: dict[str, Any] = topic.metadata.get(FORMAT, {})
    token_fields = corefi.get("token_fields", TOKEN_FIELDS)
    tokens, starts = _tokens(topic, token_fields)
    mentions = []
    for k, mention in enumerate(topic.mentions):
        if len(mention.spans) > 1:
            problems.warn(
                f"mentions[{k}]",
                None,
                "CoRefi has no discontinuous mentions; wrote the covering span",
            )
        base = starts[mention.document]
        extra = dict(mention.metadata.get(FORMAT, {}))
        int_cluster = extra.pop("int_clustId", False)
        row: dict[str, Any] = {
            "start": base + mention.spans[0][0],
            "end": base + mention.spans[-1][1],
        }
        row.update(extra)
        if mention.cluster is not None:
            row["clustId"] = int(mention.cluster) if int_cluster else mention.cluster
        mentions.append(_ordered(row, MENTION_FIELDS))
    if topic.relations:
        problems.warn(
            "relations",
            None,
            "CoRefi input files carry no hierarchy; the relations are not written",
        )
    values: dict[str, Any] = dict(corefi.get("extra", {}))
    values["tokens"], values["mentions"] = tokens, mentions
    if "clustersDesc" in values:
        values["clustersDesc"] = _clusters_desc(values["clustersDesc"], topic)
    fields = list(corefi.get("fields", ["tokens", "mentions"]))
    fields += [name for name in values if name not in fields]
    return {name: values[name] for name in fields if name in values}


def _tokens(
    topic: TopicData, token_fields: Iterable[str]
) -> tuple[list[dict[str, Any]], list[int]]:
    """Flat CoRefi tokens and the global index where each document starts. Documents not read
    from CoRefi are numbered by doc_id (paragraphs sharing a doc_id share a document)."""
    tokens: list[dict[str, Any]] = []
    starts: list[int] = []
    doc_numbers: dict[str, int] = {}
    for index, document in enumerate(topic.documents):
        starts.append(len(tokens))
        metadata = document.metadata
        if "document" in metadata:
            fields = {
                key: metadata[key]
                for key in ("document", "paragraph", "doc_name")
                if key in metadata
            }
        else:
            number = doc_numbers.setdefault(document.doc_id, len(doc_numbers))
            fields = {"document": number, "paragraph": index, "doc_name": document.doc_id}
        token_extra = metadata.get("token_extra", {})
        for offset, text in enumerate(document.tokens):
            token = {"i": len(tokens), **fields, "text": text, **token_extra.get(str(offset), {})}
            tokens.append(_ordered(token, token_fields))
    return tokens, starts


def _clusters_desc(entries: Any, topic: TopicData) -> Any:
    """The original descriptions, with texts taken from the clusters' current labels."""
    labels: dict[object, str] = {
        cluster.key: cluster.label for cluster in topic.clusters if cluster.label
    }
    if not isinstance(entries, list):
        return entries
    return [
        {**entry, "text": labels.get(entry.get("clustId"), entry.get("text"))}
        if isinstance(entry, dict)
        else entry
        for entry in entries
    ]


def _ordered(row: dict[str, Any], order: Iterable[str]) -> dict[str, Any]:
    order = list(order)
    first = {key: row[key] for key in order if key in row}
    return {**first, **{key: value for key, value in row.items() if key not in first}}
