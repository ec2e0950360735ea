"""The SciCo reader as it was before its fast paths (commit b4d440e), kept as the oracle.

``read_scico_jsonl`` here decodes with ``json`` and checks every value one by one; the tests
compare the project's reader (orjson, fast paths, bytes lines) with it on generated lines,
valid and broken: same topics, same errors, same warnings. Do not optimise this file.
"""

from __future__ import annotations

import json
from typing import Any

from annotation.domain.corpus import ClusterData, DocumentData, MentionData, TopicData
from annotation.domain.formats._io import display_name, open_text
from annotation.domain.formats.errors import FormatErrors, ImportReport, Problems, Skipped
from annotation.domain.formats.graph import find_cycles


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def canonical_int(text: str) -> int | None:
    try:
        value = int(text)
    except (TypeError, ValueError):
        return None
    return value if str(value) == text else None


FORMAT = "scico"
KNOWN_FIELDS = (
    "flatten_tokens",
    "flatten_mentions",
    "tokens",
    "doc_ids",
    "metadata",
    "sentences",
    "mentions",
    "relations",
    "id",
    "source",
)
REQUIRED_FIELDS = ("id", "tokens", "mentions")


class TopicParser:
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
            self.error("source", f"must be a string, not {json_type(source)}")
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
        self.error("id", f"must be an integer or a non-empty string, not {json_type(value)}")
        return ""

    def paragraphs(self) -> list[list[str]] | None:
        tokens = self.obj["tokens"]
        if not isinstance(tokens, list):
            self.error("tokens", f"must be a list of paragraphs, not {json_type(tokens)}")
            return None
        for p, paragraph in enumerate(tokens):
            if not isinstance(paragraph, list):
                self.error(
                    f"tokens[{p}]",
                    f"a paragraph must be a list of tokens, not {json_type(paragraph)}",
                )
                continue
            for t, token in enumerate(paragraph):
                if not isinstance(token, str):
                    self.error(
                        f"tokens[{p}][{t}]", f"a token must be a string, not {json_type(token)}"
                    )
                    break
        return None if self.bad else tokens

    def documents(
        self, paragraphs: list[list[str]], scico: dict[str, Any]
    ) -> list[DocumentData] | None:
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
                    self.error(
                        f"doc_ids[{p}]", f"must be an integer or a string, not {json_type(doc_id)}"
                    )
                ids.append(str(doc_id))
            if any(isinstance(d, str) and canonical_int(d) is not None for d in doc_ids):
                scico["string_doc_ids"] = True
        metadata = self.paragraph_metadata(ids, scico)
        sentences = self.sentences(paragraphs, scico)
        if self.bad:
            return None
        return [
            DocumentData(
                doc_id=ids[p],
                tokens=list(paragraphs[p]),
                sentences=sentences[p],
                metadata=metadata[p],
            )
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
                    self.error(f"metadata[{p}]", f"must be an object, not {json_type(entry)}")
            return [dict(entry) if isinstance(entry, dict) else {} for entry in value]
        if isinstance(value, dict):
            # Keyed by doc id: every paragraph of a paper gets the paper's metadata.
            scico["metadata_by_doc_id"] = True
            unmatched = {key: entry for key, entry in value.items() if key not in set(ids)}
            if unmatched:
                scico["metadata_unmatched"] = unmatched
            for key, entry in value.items():
                if not isinstance(entry, dict):
                    self.error(
                        f"metadata[{json.dumps(key)}]", f"must be an object, not {json_type(entry)}"
                    )
            return [
                dict(value[doc_id]) if isinstance(value.get(doc_id), dict) else {} for doc_id in ids
            ]
        self.error(
            "metadata",
            f"must be a list with one object per paragraph ({count}) or an object keyed by doc id",
        )
        return [{} for _ in range(count)]

    def sentences(
        self, paragraphs: list[list[str]], scico: dict[str, Any]
    ) -> list[list[tuple[int, int]]]:
        count = len(paragraphs)
        value = self.obj.get("sentences")
        if value is None:
            return [[] for _ in range(count)]
        if not isinstance(value, list) or len(value) != count:
            self.error(
                "sentences", f"must be a list with one list of sentences per paragraph ({count})"
            )
            return [[] for _ in range(count)]
        inclusive = _ends_look_inclusive(value, paragraphs)
        if inclusive:
            scico["inclusive_sentence_ends"] = True
        result: list[list[tuple[int, int]]] = []
        for p, sentences in enumerate(value):
            bounds: list[tuple[int, int]] = []
            if not isinstance(sentences, list):
                self.error(
                    f"sentences[{p}]", f"must be a list of [start, end], not {json_type(sentences)}"
                )
                result.append(bounds)
                continue
            size = len(paragraphs[p])
            for s, pair in enumerate(sentences):
                field = f"sentences[{p}][{s}]"
                if not (isinstance(pair, list) and len(pair) == 2 and all(is_int(x) for x in pair)):
                    self.error(
                        field, f"must be [start, end] (two integers), not {json.dumps(pair)}"
                    )
                    continue
                start, end = pair[0], pair[1] + 1 if inclusive else pair[1]
                if not 0 <= start < end <= size:
                    self.error(
                        field,
                        f"sentence {json.dumps(pair)} does not fit in the paragraph's {size} tokens",
                    )
                    continue
                bounds.append((start, end))
            result.append(bounds)
        return result

    def mentions(
        self, paragraphs: list[list[str]], scico: dict[str, Any]
    ) -> tuple[list[MentionData] | None, list[str]]:
        value = self.obj["mentions"]
        cluster_order: list[str] = []
        if not isinstance(value, list):
            self.error(
                "mentions",
                f"must be a list of [paragraph, start, end, cluster_id], not {json_type(value)}",
            )
            return None, cluster_order
        seen: dict[tuple[int, int, int], int] = {}
        known_clusters: set[str] = set()
        string_cluster_ids = False
        mentions: list[MentionData] = []
        for m, mention in enumerate(value):
            field = f"mentions[{m}]"
            if not (isinstance(mention, list) and len(mention) in (3, 4)):
                self.error(
                    field, f"must be [paragraph, start, end, cluster_id], not {json.dumps(mention)}"
                )
                continue
            paragraph, start, end = mention[:3]
            if not is_int(paragraph):
                self.error(
                    f"{field}[0]",
                    f"paragraph index must be an integer, not {json.dumps(paragraph)}",
                )
                continue
            if not 0 <= paragraph < len(paragraphs):
                self.error(
                    f"{field}[0]",
                    f"paragraph {paragraph} does not exist (the topic has {len(paragraphs)})",
                )
                continue
            size = len(paragraphs[paragraph])
            ok = True
            for position, offset in ((1, start), (2, end)):
                if not is_int(offset):
                    self.error(
                        f"{field}[{position}]",
                        f"offset must be an integer, not {json.dumps(offset)}",
                    )
                    ok = False
                elif not 0 <= offset < size:
                    self.error(
                        f"{field}[{position}]",
                        f"offset {offset} is beyond the paragraph's {size} tokens",
                    )
                    ok = False
            if ok and start > end:
                self.error(field, f"start {start} is after end {end}")
                ok = False
            cluster: str | None = None
            if len(mention) == 4:
                cluster_id = mention[3]
                if not (is_int(cluster_id) or isinstance(cluster_id, str)):
                    self.error(
                        f"{field}[3]",
                        f"cluster id must be an integer or a string, not {json.dumps(cluster_id)}",
                    )
                    ok = False
                else:
                    cluster = str(cluster_id)
                    string_cluster_ids |= (
                        isinstance(cluster_id, str) and canonical_int(cluster_id) is not None
                    )
            if cluster is not None and cluster not in known_clusters:
                # Known even when the mention is bad, so relations do not report it again.
                known_clusters.add(cluster)
                cluster_order.append(cluster)
            if not ok:
                continue
            key = (paragraph, start, end)
            if key in seen:
                self.error(
                    field,
                    f"duplicate of mentions[{seen[key]}] (paragraph {paragraph}, tokens {start}-{end})",
                )
                continue
            seen[key] = m
            mentions.append(MentionData(document=paragraph, spans=((start, end),), cluster=cluster))
        if string_cluster_ids:
            scico["string_cluster_ids"] = True
        return mentions, cluster_order

    def relations(self, cluster_order: list[str]) -> list[tuple[str, str]]:
        value = self.obj.get("relations", [])
        if not isinstance(value, list):
            self.error("relations", f"must be a list of [parent, child], not {json_type(value)}")
            return []
        clusters = set(cluster_order)
        relations: list[tuple[str, str]] = []
        first_index: dict[tuple[str, str], int] = {}
        for r, relation in enumerate(value):
            field = f"relations[{r}]"
            if (
                isinstance(relation, list)
                and len(relation) <= 2
                and (len(relation) < 2 or any(x is None or x == "" for x in relation))
            ):
                sides = [
                    side
                    for i, side in enumerate(("parent", "child"))
                    if i >= len(relation) or relation[i] in (None, "")
                ]
                self.error(
                    field, f"the {' and '.join(sides)} side is empty: {json.dumps(relation)}"
                )
                continue
            if not (
                isinstance(relation, list)
                and len(relation) == 2
                and all(is_int(x) or isinstance(x, str) for x in relation)
            ):
                self.error(
                    field, f"must be [parent_cluster, child_cluster], not {json.dumps(relation)}"
                )
                continue
            parent, child = str(relation[0]), str(relation[1])
            unknown = [
                (position, cid)
                for position, cid in ((0, parent), (1, child))
                if cid not in clusters
            ]
            for position, cid in unknown:
                self.error(
                    f"{field}[{position}]", f"cluster {cid} is not the cluster of any mention"
                )
            if unknown:
                continue
            if parent == child:
                self.error(field, f"cluster {parent} is its own parent")
                continue
            if (parent, child) in first_index:
                first = first_index[(parent, child)]
                self.problems.warn(
                    self.line,
                    field,
                    f"duplicate of relations[{first}] ({parent} -> {child}); kept once",
                )
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
            self.problems.warn(
                self.line, "flatten_tokens", "differs from the concatenated paragraphs; kept as is"
            )
            scico["flatten_tokens"] = self.obj["flatten_tokens"]
        if "flatten_mentions" in self.obj and isinstance(self.obj["mentions"], list):
            expected = flatten_mentions(paragraphs, self.obj["mentions"])
            if self.obj["flatten_mentions"] != expected:
                self.problems.warn(
                    self.line, "flatten_mentions", "differs from the mentions; kept as is"
                )
                scico["flatten_mentions"] = self.obj["flatten_mentions"]


def _ends_look_inclusive(sentences: Any, paragraphs: list[list[str]]) -> bool:
    """SciCo's sentence ends: the last sentence of a paragraph ending on its last token
    (``len - 1``) means inclusive ends; ending at ``len`` (or no evidence) means exclusive."""
    votes = 0
    for p, bounds in enumerate(sentences):
        if p < len(paragraphs) and isinstance(bounds, list) and bounds:
            last = bounds[-1]
            if isinstance(last, list) and len(last) == 2 and is_int(last[1]):
                votes += (
                    1
                    if last[1] == len(paragraphs[p]) - 1
                    else -1
                    if last[1] == len(paragraphs[p])
                    else 0
                )
    return votes > 0


def flatten_mentions(paragraphs: list[list[str]], mentions: list[Any]) -> list[list[Any]]:
    offsets = [0]
    for paragraph in paragraphs:
        offsets.append(offsets[-1] + len(paragraph))
    flat = []
    for mention in mentions:
        if (
            isinstance(mention, list)
            and len(mention) >= 3
            and is_int(mention[0])
            and 0 <= mention[0] < len(paragraphs)
        ):
            base = offsets[mention[0]]
            flat.append([base + mention[1], base + mention[2], *mention[3:]])
    return flat


def json_type(value: Any) -> str:
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        type(None): "null",
    }.get(type(value), "a number")


def read_scico_jsonl(path_or_stream, *, skip_invalid: bool = False) -> ImportReport:
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
                    line_problems.error(
                        line_number, "id", f"topic id {topic_id} is already used on line {first}"
                    )
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


def _parse_line(
    line: str, line_number: int, problems: Problems
) -> tuple[str | None, TopicData | None]:
    """The line's topic id (when it has a usable one) and its topic (None when invalid)."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        problems.error(line_number, None, f"malformed JSON: {exc.msg} at column {exc.colno}")
        return None, None
    if not isinstance(obj, dict):
        problems.error(line_number, None, f"a topic must be a JSON object, not {json_type(obj)}")
        return None, None
    topic_id = obj.get("id")
    topic_id = (
        str(topic_id) if is_int(topic_id) or (isinstance(topic_id, str) and topic_id) else None
    )
    return topic_id, TopicParser(obj, line_number, problems).parse()
