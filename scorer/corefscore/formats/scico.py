"""SciCo jsonl (Cattan et al., AKBC 2021): one topic per line.

Fields (github ariecattan/SciCo README and its HuggingFace loader): ``id`` (int),
``tokens`` (paragraphs of tokens), ``doc_ids`` (the paper of each paragraph; several
paragraphs may share one), ``metadata`` (one object per paragraph: title, paper_sha, ...),
``sentences`` (per paragraph, ``[start, end]`` token ranges), ``mentions``
(``[paragraph, start, end, cluster_id]``, ends inclusive), ``relations``
(``[parent_cluster, child_cluster]``), ``source``, ``flatten_tokens`` and
``flatten_mentions`` (the same over the concatenated paragraphs), and in some splits
``hard_10``, ``hard_20``, ``curated``. A model's output may carry only ``id``, ``tokens``,
``mentions`` and ``relations``.

Mapping: one paragraph -> one :class:`DocumentData` (doc_id from ``doc_ids``, metadata from
``metadata``); cluster ids -> string cluster keys. What only SciCo says (which fields the
line had and in which order, unknown fields such as ``hard_10``, the sentence-end
convention) is kept in ``TopicData.metadata["scico"]`` so that the writer gives the line
back. See docs/formats.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from corefscore.corpus import DocumentData, TopicData
from corefscore.formats import _json
from corefscore.formats._io import (
    PathOrStream,
    canonical_int,
    display_name,
    is_int,
    json_type,
    open_text,
)
from corefscore.formats._lines import jsonl_lines
from corefscore.formats.errors import (
    FormatError,
    FormatErrors,
    FormatWarning,
    ImportReport,
    Problems,
    Skipped,
)
from corefscore.formats.scico_mentions import flatten_mentions
from corefscore.formats.scico_parser import FORMAT, KNOWN_FIELDS, NOTES_KEY, TopicParser

# The order of the SciCo release (README), used for topics that did not come from SciCo.
DEFAULT_FIELDS = KNOWN_FIELDS

__all__ = [
    "DEFAULT_FIELDS",
    "ScicoLine",
    "jsonl_lines",  # (the numbered lines a caller parses one by one: the scorer)
    "parse_scico_line",
    "read_scico_jsonl",
    "scico_report",
    "topic_to_scico",
    "write_scico_jsonl",
]


# --------------------------------------------------------------------------- reading


@dataclass
class ScicoLine:
    """What one line gave: its topic id when usable (for the duplicate check across lines), its
    topic (None when invalid), and its problems."""

    line: int
    topic_id: str | None
    topic: TopicData | None
    errors: list[FormatError]
    warnings: list[FormatWarning]


def read_scico_jsonl(path_or_stream: PathOrStream, *, skip_invalid: bool = False) -> ImportReport:
    """Read a SciCo jsonl file; raise :class:`FormatErrors` listing every error found,
    unless ``skip_invalid``, in which case bad lines are left out and listed in ``skipped``."""
    file = display_name(path_or_stream)
    parsed = (parse_scico_line(line, number, file) for number, line in jsonl_lines(path_or_stream))
    return scico_report(file, parsed, skip_invalid=skip_invalid)


def scico_report(
    file: str, lines: Iterable[ScicoLine], *, skip_invalid: bool = False
) -> ImportReport:
    """The report of a file from its parsed lines, in file order: a topic id already used on
    an earlier line is an error there; raises :class:`FormatErrors` on any error unless
    ``skip_invalid``."""
    report = ImportReport()
    seen_ids: dict[str, int] = {}
    for parsed in lines:
        topic = parsed.topic
        errors = list(parsed.errors)
        if parsed.topic_id is not None:
            first = seen_ids.get(parsed.topic_id)
            if first is not None:
                errors.append(
                    FormatError(
                        file,
                        parsed.line,
                        "id",
                        f"topic id {parsed.topic_id} is already used on line {first}",
                    )
                )
                topic = None
            else:
                seen_ids[parsed.topic_id] = parsed.line
        report.errors += errors
        report.warnings += parsed.warnings
        if errors:
            report.skipped.append(Skipped(file, parsed.line, tuple(errors)))
        elif topic is not None:
            report.topics.append(topic)
    if report.errors and not skip_invalid:
        raise FormatErrors(report.errors, report)
    return report


def parse_scico_line(
    line: str | bytes,
    line_number: int,
    file: str,
    *,
    flattened: bool = True,
    token_contents: bool = True,
) -> ScicoLine:
    """Parse and check one (non-blank) line. ``flattened=False``, ``token_contents=False``: see
    :class:`TopicParser`.

    With both checks off (the scorer) the tokens are counted, not decoded, where
    simdjson can read the line (``_json.tokens_counted``); otherwise, and for the importer, the
    line is decoded with orjson when it can be (see ``_json``); when that result could
    differ from the standard library's (orjson turns integers beyond 64 bits into floats),
    that is, when the line has an error or holds a float outside the checked fields, it is
    decoded and checked again with ``json``, so topics and messages are the same either way.
    """
    try:
        counted = None if token_contents or flattened else _json.tokens_counted(line)
        obj, exact = (counted, False) if counted is not None else _json.loads(line)
        parsed = _parse_object(obj, line_number, file, flattened, token_contents)
        if not exact and (parsed.errors or _unchecked_float(obj, parsed.topic)):
            obj = _json.exact(line)
            parsed = _parse_object(obj, line_number, file, flattened, token_contents)
    except _json.JSONDecodeError as exc:
        problems = Problems(file)
        problems.error(line_number, None, f"malformed JSON: {exc.msg} at column {exc.colno}")
        return ScicoLine(line_number, None, None, problems.errors, problems.warnings)
    return parsed


def _parse_object(
    obj: Any, line_number: int, file: str, flattened: bool, token_contents: bool
) -> ScicoLine:
    problems = Problems(file)
    if not isinstance(obj, dict):
        problems.error(line_number, None, f"a topic must be a JSON object, not {json_type(obj)}")
        return ScicoLine(line_number, None, None, problems.errors, problems.warnings)
    topic_id = obj.get("id")
    topic_id = (
        str(topic_id) if is_int(topic_id) or (isinstance(topic_id, str) and topic_id) else None
    )
    parser = TopicParser(
        obj, line_number, problems, flattened=flattened, token_contents=token_contents
    )
    topic = parser.parse()
    return ScicoLine(line_number, topic_id, topic, problems.errors, problems.warnings)


# Fields whose every value the parser checks to be an int, a string, a bool or a list of these:
# a float there is an error already (and errors are re-checked from ``json``'s result).
_CHECKED_FIELDS = frozenset(
    {"id", "tokens", "doc_ids", "sentences", "mentions", "relations", "source"}
)


def _unchecked_float(obj: dict[str, Any], topic: TopicData | None) -> bool:
    """Whether a valid line holds a float that the topic keeps and the parser did not check
    (metadata, unknown fields, ``flatten_*`` kept because they differ)."""
    if topic is None:
        return False
    kept = topic.metadata.get(FORMAT, {})
    for name, value in obj.items():
        if name in _CHECKED_FIELDS or (
            name in ("flatten_tokens", "flatten_mentions") and name not in kept
        ):
            continue
        if _json.has_float(value):
            return True
    return False


# --------------------------------------------------------------------------- writing


def write_scico_jsonl(
    topics: Iterable[TopicData], path_or_stream: PathOrStream
) -> list[FormatWarning]:
    """Write topics as SciCo jsonl, one line each; return warnings about what SciCo cannot
    express (discontinuous mentions are written as their covering span)."""
    file = display_name(path_or_stream)
    problems = Problems(file)
    with open_text(path_or_stream, "w") as stream:
        for index, topic in enumerate(topics):
            stream.write(json.dumps(topic_to_scico(topic, problems, index + 1)) + "\n")
    return problems.warnings


def topic_to_scico(
    topic: TopicData, problems: Problems | None = None, line: int | None = None
) -> dict[str, Any]:
    """The SciCo object of one topic (the fields it came with, in their order)."""
    problems = problems or Problems("<scico>")
    scico: dict[str, Any] = topic.metadata.get(FORMAT, {})
    cluster_ids = _cluster_ids(topic, scico, problems, line)
    paragraphs = [document.tokens for document in topic.documents]
    mentions: list[list[Any]] = []
    for m, mention in enumerate(topic.mentions):
        start, end = mention.spans[0][0], mention.spans[-1][1]
        if len(mention.spans) > 1:
            problems.warn(
                line,
                f"mentions[{m}]",
                "SciCo has no discontinuous mentions; wrote the covering span",
            )
        row: list[Any] = [mention.document, start, end]
        if mention.cluster is not None:
            row.append(cluster_ids[mention.cluster])
        mentions.append(row)
    values: dict[str, Any] = {
        "id": _id_value(topic.external_id, scico.get("string_id", False)),
        "tokens": paragraphs,
        "doc_ids": [
            _id_value(d.doc_id, scico.get("string_doc_ids", False)) for d in topic.documents
        ],
        "metadata": _metadata_value(topic, scico),
        "sentences": [_sentences_value(d, scico) for d in topic.documents],
        "mentions": mentions,
        "relations": [
            [cluster_ids[parent], cluster_ids[child]] for parent, child in topic.relations
        ],
        "source": topic.source,
        "flatten_tokens": scico.get("flatten_tokens", [t for p in paragraphs for t in p]),
        "flatten_mentions": scico.get("flatten_mentions", flatten_mentions(paragraphs, mentions)),
    }
    values.update(scico.get("extra", {}))
    notes = [
        {
            "cluster": cluster_ids[c.key],
            **({"note": c.note} if c.note else {}),
            **({"attributes": dict(c.attributes)} if c.attributes else {}),
        }
        for c in topic.clusters
        if c.note or c.attributes
    ]
    if notes:
        values[NOTES_KEY] = notes
    fields = list(scico.get("fields", DEFAULT_FIELDS))
    if notes and NOTES_KEY not in fields:
        fields.append(NOTES_KEY)
    for name in ("id", "tokens", "mentions"):
        if name not in fields:
            fields.append(name)
    if topic.relations and "relations" not in fields:
        fields.append("relations")
    return {name: values[name] for name in fields if name in values}


def _cluster_ids(
    topic: TopicData, scico: dict[str, Any], problems: Problems, line: int | None
) -> dict[str, Any]:
    """Cluster key -> the id written: an integer where the key is one (SciCo's code expects
    integers), else the clusters are numbered in order of first use (with a warning)."""
    keys = [m.cluster for m in topic.mentions if m.cluster is not None]
    keys += [k for relation in topic.relations for k in relation]
    keys += [c.key for c in topic.clusters]
    keys = list(dict.fromkeys(keys))
    if scico.get("string_cluster_ids"):
        return {key: key for key in keys}
    as_ints = {key: canonical_int(key) for key in keys}
    if all(value is not None for value in as_ints.values()):
        return as_ints
    problems.warn(
        line,
        "mentions",
        "cluster keys are not integers; SciCo clusters numbered 0.. in order of first use",
    )
    return {key: number for number, key in enumerate(keys)}


def _id_value(text: str, keep_string: bool) -> Any:
    number = canonical_int(text)
    return text if keep_string or number is None else number


def _metadata_value(topic: TopicData, scico: dict[str, Any]) -> Any:
    if not scico.get("metadata_by_doc_id"):
        return [dict(d.metadata) for d in topic.documents]
    by_doc: dict[str, Any] = {}
    for document in topic.documents:
        if document.metadata:
            by_doc.setdefault(document.doc_id, dict(document.metadata))
    by_doc.update(scico.get("metadata_unmatched", {}))
    return by_doc


def _sentences_value(document: DocumentData, scico: dict[str, Any]) -> list[list[int]]:
    shift = 1 if scico.get("inclusive_sentence_ends") else 0
    return [[start, end - shift] for start, end in document.sentences]
