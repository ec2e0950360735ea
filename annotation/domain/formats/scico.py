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
from typing import Any

from annotation.domain.corpus import ClusterData, DocumentData, MentionData, TopicData
from annotation.domain.formats._io import PathOrStream, canonical_int, display_name, is_int, open_text
from annotation.domain.formats.errors import FormatErrors, FormatWarning, ImportReport, Problems, Skipped
from annotation.domain.formats.graph import find_cycles

FORMAT = "scico"
KNOWN_FIELDS = (
    "flatten_tokens", "flatten_mentions", "tokens", "doc_ids", "metadata", "sentences",
    "mentions", "relations", "id", "source",
)
REQUIRED_FIELDS = ("id", "tokens", "mentions")
# The order of the SciCo release (README), used for topics that did not come from SciCo.
DEFAULT_FIELDS = KNOWN_FIELDS


# --------------------------------------------------------------------------- reading


def read_scico_jsonl(path_or_stream: PathOrStream, *, skip_invalid: bool = False) -> ImportReport:
    """Read a SciCo jsonl file; raise :class:`FormatErrors` listing every error found,
    unless ``skip_invalid``, in which case bad lines are left out and listed in ``skipped``."""
    file = display_name(path_or_stream)
    problems = Problems(file)
    report = ImportReport()
    seen_ids: dict[str, int] = {}
    with open_text(path_or_stream) as stream:
        for line_number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            line_problems = Problems(file)
            topic_id, topic = _parse_line(line, line_number, line_problems)
            if topic_id is not None:
                first = seen_ids.get(topic_id)
                if first is not None:
                    line_problems.error(line_number, "id", f"topic id {topic_id} is already used on line {first}")
                    topic = None
                else:
                    seen_ids[topic_id] = line_number
            problems.errors += line_problems.errors
            problems.warnings += line_problems.warnings
            if line_problems.errors:
                report.skipped.append(Skipped(file, line_number, tuple(line_problems.errors)))
            elif topic is not None:
                report.topics.append(topic)
    report.errors, report.warnings = problems.errors, problems.warnings
    if report.errors and not skip_invalid:
        raise FormatErrors(report.errors, report)
    return report


def _parse_line(line: str, line_number: int, problems: Problems) -> tuple[str | None, TopicData | None]:
    """The line's topic id (when it has a usable one) and its topic (None when invalid)."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        problems.error(line_number, None, f"malformed JSON: {exc.msg} at column {exc.colno}")
        return None, None
    if not isinstance(obj, dict):
        problems.error(line_number, None, f"a topic must be a JSON object, not {_json_type(obj)}")
        return None, None
    topic_id = obj.get("id")
    topic_id = str(topic_id) if is_int(topic_id) or (isinstance(topic_id, str) and topic_id) else None
    return topic_id, _TopicParser(obj, line_number, problems).parse()


class _TopicParser:
    """Validates one topic object and builds its TopicData; errors go to ``problems``."""

    def __init__(self, obj: dict[str, Any], line: int, problems: Problems):
        self.obj, self.line, self.problems = obj, line, problems
        self.bad = False

    def error(self, field: str | None, message: str) -> None:
        self.bad = True
        self.problems.error(self.line, field, message)

    def parse(self) -> TopicData | None:
        obj = self.obj
        for name in REQUIRED_FIELDS:
            if name not in obj:
                self.error(name, "missing (a SciCo topic needs id, tokens and mentions)")
        if self.bad:
            return None
        scico: dict[str, Any] = {"fields": list(obj)}
        topic_id = self.topic_id(scico)
        paragraphs = self.paragraphs()
        if paragraphs is None:
            return None
        documents = self.documents(paragraphs, scico)
        mentions, cluster_order = self.mentions(paragraphs, scico)
        relations = self.relations(cluster_order)
        source = obj.get("source", "")
        if not isinstance(source, str):
            self.error("source", f"must be a string, not {_json_type(source)}")
        self.check_flattened(paragraphs, scico)
        extra = {key: value for key, value in obj.items() if key not in KNOWN_FIELDS}
        if extra:
            scico["extra"] = extra
        if self.bad or documents is None or mentions is None:
            return None
        return TopicData(
            external_id=topic_id,
            documents=documents,
            mentions=mentions,
            clusters=[ClusterData(key) for key in cluster_order],
            relations=relations,
            source=source if isinstance(source, str) else "",
            metadata={FORMAT: scico},
        )

    def topic_id(self, scico: dict[str, Any]) -> str:
        value = self.obj["id"]
        if is_int(value):
            return str(value)
        if isinstance(value, str) and value:
            if canonical_int(value) is not None:
                scico["string_id"] = True
            return value
        self.error("id", f"must be an integer or a non-empty string, not {_json_type(value)}")
        return ""

    def paragraphs(self) -> list[list[str]] | None:
        tokens = self.obj["tokens"]
        if not isinstance(tokens, list):
            self.error("tokens", f"must be a list of paragraphs, not {_json_type(tokens)}")
            return None
        for p, paragraph in enumerate(tokens):
            if not isinstance(paragraph, list):
                self.error(f"tokens[{p}]", f"a paragraph must be a list of tokens, not {_json_type(paragraph)}")
                continue
            for t, token in enumerate(paragraph):
                if not isinstance(token, str):
                    self.error(f"tokens[{p}][{t}]", f"a token must be a string, not {_json_type(token)}")
                    break
        return None if self.bad else tokens

    def documents(self, paragraphs: list[list[str]], scico: dict[str, Any]) -> list[DocumentData] | None:
        count = len(paragraphs)
        doc_ids = self.obj.get("doc_ids")
        if doc_ids is None:
            ids = [str(p) for p in range(count)]
        elif not isinstance(doc_ids, list) or len(doc_ids) != count:
            self.error("doc_ids", f"must be a list with one doc id per paragraph ({count})")
            return None
        else:
            ids = []
            for p, doc_id in enumerate(doc_ids):
                if not (is_int(doc_id) or isinstance(doc_id, str)):
                    self.error(f"doc_ids[{p}]", f"must be an integer or a string, not {_json_type(doc_id)}")
                ids.append(str(doc_id))
            if any(isinstance(d, str) and canonical_int(d) is not None for d in doc_ids):
                scico["string_doc_ids"] = True
        metadata = self.paragraph_metadata(ids, scico)
        sentences = self.sentences(paragraphs, scico)
        if self.bad:
            return None
        return [
            DocumentData(doc_id=ids[p], tokens=list(paragraphs[p]), sentences=sentences[p], metadata=metadata[p])
            for p in range(count)
        ]

    def paragraph_metadata(self, ids: list[str], scico: dict[str, Any]) -> list[dict[str, Any]]:
        value = self.obj.get("metadata")
        count = len(ids)
        if value is None:
            return [{} for _ in range(count)]
        if isinstance(value, list) and len(value) == count:
            for p, entry in enumerate(value):
                if not isinstance(entry, dict):
                    self.error(f"metadata[{p}]", f"must be an object, not {_json_type(entry)}")
            return [dict(entry) if isinstance(entry, dict) else {} for entry in value]
        if isinstance(value, dict):
            # Keyed by doc id: every paragraph of a paper gets the paper's metadata.
            scico["metadata_by_doc_id"] = True
            unmatched = {key: entry for key, entry in value.items() if key not in set(ids)}
            if unmatched:
                scico["metadata_unmatched"] = unmatched
            for key, entry in value.items():
                if not isinstance(entry, dict):
                    self.error(f"metadata[{json.dumps(key)}]", f"must be an object, not {_json_type(entry)}")
            return [dict(value[doc_id]) if isinstance(value.get(doc_id), dict) else {} for doc_id in ids]
        self.error("metadata", f"must be a list with one object per paragraph ({count}) or an object keyed by doc id")
        return [{} for _ in range(count)]

    def sentences(self, paragraphs: list[list[str]], scico: dict[str, Any]) -> list[list[tuple[int, int]]]:
        count = len(paragraphs)
        value = self.obj.get("sentences")
        if value is None:
            return [[] for _ in range(count)]
        if not isinstance(value, list) or len(value) != count:
            self.error("sentences", f"must be a list with one list of sentences per paragraph ({count})")
            return [[] for _ in range(count)]
        inclusive = _ends_look_inclusive(value, paragraphs)
        if inclusive:
            scico["inclusive_sentence_ends"] = True
        result: list[list[tuple[int, int]]] = []
        for p, sentences in enumerate(value):
            bounds: list[tuple[int, int]] = []
            if not isinstance(sentences, list):
                self.error(f"sentences[{p}]", f"must be a list of [start, end], not {_json_type(sentences)}")
                result.append(bounds)
                continue
            size = len(paragraphs[p])
            for s, pair in enumerate(sentences):
                field = f"sentences[{p}][{s}]"
                if not (isinstance(pair, list) and len(pair) == 2 and all(is_int(x) for x in pair)):
                    self.error(field, f"must be [start, end] (two integers), not {json.dumps(pair)}")
                    continue
                start, end = pair[0], pair[1] + 1 if inclusive else pair[1]
                if not 0 <= start < end <= size:
                    self.error(field, f"sentence {json.dumps(pair)} does not fit in the paragraph's {size} tokens")
                    continue
                bounds.append((start, end))
            result.append(bounds)
        return result

    def mentions(self, paragraphs: list[list[str]], scico: dict[str, Any]) -> tuple[list[MentionData] | None, list[str]]:
        value = self.obj["mentions"]
        cluster_order: list[str] = []
        if not isinstance(value, list):
            self.error("mentions", f"must be a list of [paragraph, start, end, cluster_id], not {_json_type(value)}")
            return None, cluster_order
        seen: dict[tuple[int, int, int], int] = {}
        known_clusters: set[str] = set()
        string_cluster_ids = False
        mentions: list[MentionData] = []
        for m, mention in enumerate(value):
            field = f"mentions[{m}]"
            if not (isinstance(mention, list) and len(mention) in (3, 4)):
                self.error(field, f"must be [paragraph, start, end, cluster_id], not {json.dumps(mention)}")
                continue
            paragraph, start, end = mention[:3]
            if not is_int(paragraph):
                self.error(f"{field}[0]", f"paragraph index must be an integer, not {json.dumps(paragraph)}")
                continue
            if not 0 <= paragraph < len(paragraphs):
                self.error(f"{field}[0]", f"paragraph {paragraph} does not exist (the topic has {len(paragraphs)})")
                continue
            size = len(paragraphs[paragraph])
            ok = True
            for position, offset in ((1, start), (2, end)):
                if not is_int(offset):
                    self.error(f"{field}[{position}]", f"offset must be an integer, not {json.dumps(offset)}")
                    ok = False
                elif not 0 <= offset < size:
                    self.error(f"{field}[{position}]", f"offset {offset} is beyond the paragraph's {size} tokens")
                    ok = False
            if ok and start > end:
                self.error(field, f"start {start} is after end {end}")
                ok = False
            cluster: str | None = None
            if len(mention) == 4:
                cluster_id = mention[3]
                if not (is_int(cluster_id) or isinstance(cluster_id, str)):
                    self.error(f"{field}[3]", f"cluster id must be an integer or a string, not {json.dumps(cluster_id)}")
                    ok = False
                else:
                    cluster = str(cluster_id)
                    string_cluster_ids |= isinstance(cluster_id, str) and canonical_int(cluster_id) is not None
            if cluster is not None and cluster not in known_clusters:
                # Known even when the mention is bad, so relations do not report it again.
                known_clusters.add(cluster)
                cluster_order.append(cluster)
            if not ok:
                continue
            key = (paragraph, start, end)
            if key in seen:
                self.error(field, f"duplicate of mentions[{seen[key]}] (paragraph {paragraph}, tokens {start}-{end})")
                continue
            seen[key] = m
            mentions.append(MentionData(document=paragraph, spans=((start, end),), cluster=cluster))
        if string_cluster_ids:
            scico["string_cluster_ids"] = True
        return mentions, cluster_order

    def relations(self, cluster_order: list[str]) -> list[tuple[str, str]]:
        value = self.obj.get("relations", [])
        if not isinstance(value, list):
            self.error("relations", f"must be a list of [parent, child], not {_json_type(value)}")
            return []
        clusters = set(cluster_order)
        relations: list[tuple[str, str]] = []
        first_index: dict[tuple[str, str], int] = {}
        for r, relation in enumerate(value):
            field = f"relations[{r}]"
            if isinstance(relation, list) and len(relation) <= 2 and (
                len(relation) < 2 or any(x is None or x == "" for x in relation)
            ):
                sides = [side for i, side in enumerate(("parent", "child")) if i >= len(relation) or relation[i] in (None, "")]
                self.error(field, f"the {' and '.join(sides)} side is empty: {json.dumps(relation)}")
                continue
            if not (isinstance(relation, list) and len(relation) == 2
                    and all(is_int(x) or isinstance(x, str) for x in relation)):
                self.error(field, f"must be [parent_cluster, child_cluster], not {json.dumps(relation)}")
                continue
            parent, child = str(relation[0]), str(relation[1])
            unknown = [(position, cid) for position, cid in ((0, parent), (1, child)) if cid not in clusters]
            for position, cid in unknown:
                self.error(f"{field}[{position}]", f"cluster {cid} is not the cluster of any mention")
            if unknown:
                continue
            if parent == child:
                self.error(field, f"cluster {parent} is its own parent")
                continue
            if (parent, child) in first_index:
                self.problems.warn(self.line, field, f"duplicate of relations[{first_index[(parent, child)]}] ({parent} -> {child}); kept once")
                continue
            first_index[(parent, child)] = r
            relations.append((parent, child))
        for cycle in find_cycles(relations):
            self.error("relations", "cycle in the hierarchy: " + " -> ".join(cycle + [cycle[0]]))
        return relations

    def check_flattened(self, paragraphs: list[list[str]], scico: dict[str, Any]) -> None:
        """``flatten_*`` repeat ``tokens``/``mentions``; the writer recomputes them, unless they
        disagree here, in which case they are kept as they were (with a warning)."""
        flat_tokens = [token for paragraph in paragraphs for token in paragraph]
        if "flatten_tokens" in self.obj and self.obj["flatten_tokens"] != flat_tokens:
            self.problems.warn(self.line, "flatten_tokens", "differs from the concatenated paragraphs; kept as is")
            scico["flatten_tokens"] = self.obj["flatten_tokens"]
        if "flatten_mentions" in self.obj and isinstance(self.obj["mentions"], list):
            expected = _flatten_mentions(paragraphs, self.obj["mentions"])
            if self.obj["flatten_mentions"] != expected:
                self.problems.warn(self.line, "flatten_mentions", "differs from the mentions; kept as is")
                scico["flatten_mentions"] = self.obj["flatten_mentions"]


def _ends_look_inclusive(sentences: Any, paragraphs: list[list[str]]) -> bool:
    """SciCo's sentence ends: the last sentence of a paragraph ending on its last token
    (``len - 1``) means inclusive ends; ending at ``len`` (or no evidence) means exclusive."""
    votes = 0
    for p, bounds in enumerate(sentences):
        if p < len(paragraphs) and isinstance(bounds, list) and bounds:
            last = bounds[-1]
            if isinstance(last, list) and len(last) == 2 and is_int(last[1]):
                votes += 1 if last[1] == len(paragraphs[p]) - 1 else -1 if last[1] == len(paragraphs[p]) else 0
    return votes > 0


def _flatten_mentions(paragraphs: list[list[str]], mentions: list[Any]) -> list[list[Any]]:
    offsets = [0]
    for paragraph in paragraphs:
        offsets.append(offsets[-1] + len(paragraph))
    flat = []
    for mention in mentions:
        if isinstance(mention, list) and len(mention) >= 3 and is_int(mention[0]) and 0 <= mention[0] < len(paragraphs):
            base = offsets[mention[0]]
            flat.append([base + mention[1], base + mention[2], *mention[3:]])
    return flat


def _json_type(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


# --------------------------------------------------------------------------- writing


def write_scico_jsonl(topics: Iterable[TopicData], path_or_stream: PathOrStream) -> list[FormatWarning]:
    """Write topics as SciCo jsonl, one line each; return warnings about what SciCo cannot
    express (discontinuous mentions are written as their covering span)."""
    file = display_name(path_or_stream)
    problems = Problems(file)
    with open_text(path_or_stream, "w") as stream:
        for index, topic in enumerate(topics):
            stream.write(json.dumps(topic_to_scico(topic, problems, index + 1)) + "\n")
    return problems.warnings


def topic_to_scico(topic: TopicData, problems: Problems | None = None, line: int | None = None) -> dict[str, Any]:
    """The SciCo object of one topic (the fields it came with, in their order)."""
    problems = problems or Problems("<scico>")
    scico: dict[str, Any] = topic.metadata.get(FORMAT, {})
    cluster_ids = _cluster_ids(topic, scico, problems, line)
    paragraphs = [document.tokens for document in topic.documents]
    mentions: list[list[Any]] = []
    for m, mention in enumerate(topic.mentions):
        start, end = mention.spans[0][0], mention.spans[-1][1]
        if len(mention.spans) > 1:
            problems.warn(line, f"mentions[{m}]", "SciCo has no discontinuous mentions; wrote the covering span")
        row: list[Any] = [mention.document, start, end]
        if mention.cluster is not None:
            row.append(cluster_ids[mention.cluster])
        mentions.append(row)
    values: dict[str, Any] = {
        "id": _id_value(topic.external_id, scico.get("string_id", False)),
        "tokens": paragraphs,
        "doc_ids": [_id_value(d.doc_id, scico.get("string_doc_ids", False)) for d in topic.documents],
        "metadata": _metadata_value(topic, scico),
        "sentences": [_sentences_value(d, scico) for d in topic.documents],
        "mentions": mentions,
        "relations": [[cluster_ids[parent], cluster_ids[child]] for parent, child in topic.relations],
        "source": topic.source,
        "flatten_tokens": scico.get("flatten_tokens", [t for p in paragraphs for t in p]),
        "flatten_mentions": scico.get("flatten_mentions", _flatten_mentions(paragraphs, mentions)),
    }
    values.update(scico.get("extra", {}))
    fields = list(scico.get("fields", DEFAULT_FIELDS))
    for name in ("id", "tokens", "mentions"):
        if name not in fields:
            fields.append(name)
    if topic.relations and "relations" not in fields:
        fields.append("relations")
    return {name: values[name] for name in fields if name in values}


def _cluster_ids(topic: TopicData, scico: dict[str, Any], problems: Problems, line: int | None) -> dict[str, Any]:
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
    problems.warn(line, "mentions", "cluster keys are not integers; SciCo clusters numbered 0.. in order of first use")
    return {key: number for number, key in enumerate(keys)}


def _id_value(text: str, keep_string: bool) -> Any:
    number = canonical_int(text)
    return text if keep_string or number is None else number


def _metadata_value(topic: TopicData, scico: dict[str, Any]) -> Any:
    if not scico.get("metadata_by_doc_id"):
        return [dict(d.metadata) for d in topic.documents]
    by_doc: dict[str, Any] = {}
    for document in topic.documents:
        by_doc.setdefault(document.doc_id, dict(document.metadata))
    by_doc.update(scico.get("metadata_unmatched", {}))
    return by_doc


def _sentences_value(document: DocumentData, scico: dict[str, Any]) -> list[list[int]]:
    shift = 1 if scico.get("inclusive_sentence_ends") else 0
    return [[start, end - shift] for start, end in document.sentences]
