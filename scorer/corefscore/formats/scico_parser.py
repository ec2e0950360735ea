"""Validation of one SciCo topic object (see :mod:`corefscore.formats.scico`)."""

from __future__ import annotations

import json
from itertools import chain
from typing import Any

from corefscore.corpus import ClusterData, DocumentData, TopicData
from corefscore.formats._io import canonical_int, is_int, json_type
from corefscore.formats.errors import Problems
from corefscore.formats.scico_mentions import flatten_mentions, parse_mentions
from corefscore.formats.scico_relations import parse_relations
from corefscore.formats.scico_sentences import parse_sentences

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
# What annotators wrote on clusters: a list of {"cluster": id, "note": text, "attributes":
# {name: value}}; an extra key SciCo's own code ignores, written only when there are any.
NOTES_KEY = "cluster_notes"


class TopicParser:
    """Validates one topic object and builds its TopicData; errors go to ``problems``.

    The topic takes the object's paragraph lists as its documents' tokens (no copy): the
    object is the parser's. Two checks can be left out by a caller that needs neither, such as
    the scorer, which only counts the tokens: ``flattened=False`` skips the comparison of
    ``flatten_tokens`` and ``flatten_mentions`` with the rest of the line, which only ever
    gives warnings and keeps the fields for the writer; ``token_contents=False`` checks that
    each paragraph is a list, not that each token is a string.

    Checks that run over every token (or every sentence) have a fast path that only answers
    "all fine"; when it says no, the exact check runs and names the offending field, so the
    errors are the same either way.
    """

    def __init__(
        self,
        obj: dict[str, Any],
        line: int,
        problems: Problems,
        *,
        flattened: bool = True,
        token_contents: bool = True,
    ):
        self.obj, self.line, self.problems = obj, line, problems
        self.flattened = flattened
        self.token_contents = token_contents
        self.bad = False

    def error(self, field: str | None, message: str) -> None:
        self.bad = True
        self.problems.error(self.line, field, message)

    def warn(self, field: str | None, message: str) -> None:
        self.problems.warn(self.line, field, message)

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
        mentions, cluster_order = parse_mentions(obj["mentions"], paragraphs, scico, self.error)
        relations = parse_relations(obj.get("relations", []), cluster_order, self.error, self.warn)
        source = obj.get("source", "")
        if not isinstance(source, str):
            self.error("source", f"must be a string, not {json_type(source)}")
        if self.flattened:
            self.check_flattened(paragraphs, scico)
        notes = self.cluster_notes(obj.get(NOTES_KEY, []), cluster_order or [])
        extra = {
            key: value for key, value in obj.items() if key not in KNOWN_FIELDS and key != NOTES_KEY
        }
        if extra:
            scico["extra"] = extra
        if self.bad or documents is None or mentions is None:
            return None
        return TopicData(
            external_id=topic_id,
            documents=documents,
            mentions=mentions,
            clusters=[ClusterData(key, None, *notes.get(key, ("", {}))) for key in cluster_order],
            relations=relations,
            source=source if isinstance(source, str) else "",
            metadata={FORMAT: scico},
        )

    def cluster_notes(
        self, value: Any, cluster_order: list[str]
    ) -> dict[str, tuple[str, dict[str, str]]]:
        """Cluster key -> (note, attributes); an entry naming no cluster is left out (warning),
        a malformed one is an error."""
        if not isinstance(value, list):
            self.error(NOTES_KEY, f"must be a list of objects, not {json_type(value)}")
            return {}
        known, result = set(cluster_order), {}
        for i, entry in enumerate(value):
            field = f"{NOTES_KEY}[{i}]"
            cluster = entry.get("cluster") if isinstance(entry, dict) else None
            note = entry.get("note", "") if isinstance(entry, dict) else None
            attributes = entry.get("attributes", {}) if isinstance(entry, dict) else None
            if not (
                (is_int(cluster) or isinstance(cluster, str))
                and isinstance(note, str)
                and isinstance(attributes, dict)
                and all(isinstance(v, str) for v in attributes.values())
            ):
                self.error(
                    field,
                    'must be {"cluster": id, "note": text, "attributes": {name: value}}',
                )
                continue
            assert isinstance(note, str)
            assert isinstance(attributes, dict)
            key = str(cluster)
            if key not in known:
                self.warn(field, f"cluster {key} has no mention on this line; left out")
                continue
            result[key] = (note, {str(k): v for k, v in attributes.items()})
        return result

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
        if all_token_lists(tokens) if self.token_contents else all_lists(tokens):
            return None if self.bad else tokens
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
        elif (
            type(doc_ids) is list and len(doc_ids) == count and all(type(d) is int for d in doc_ids)
        ):
            ids = list(map(str, doc_ids))  # fast path: integer ids (SciCo's)
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
        sentences = parse_sentences(self.obj.get("sentences"), paragraphs, scico, self.error)
        if self.bad:
            return None
        return list(
            map(DocumentData, ids, paragraphs, sentences, metadata)
        )  # (doc_id, tokens, sentences, metadata)

    def paragraph_metadata(self, ids: list[str], scico: dict[str, Any]) -> list[dict[str, Any]]:
        value = self.obj.get("metadata")
        count = len(ids)
        if value is None:
            return [{} for _ in range(count)]
        if isinstance(value, list) and len(value) == count:
            for p, entry in enumerate(value):
                if not isinstance(entry, dict):
                    self.error(f"metadata[{p}]", f"must be an object, not {json_type(entry)}")
            return [entry if isinstance(entry, dict) else {} for entry in value]  # (the parser's)
        if isinstance(value, dict):
            # Keyed by doc id: every paragraph of a paper gets the paper's metadata.
            scico["metadata_by_doc_id"] = True
            known = set(ids)
            unmatched = {key: entry for key, entry in value.items() if key not in known}
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

    def check_flattened(self, paragraphs: list[list[str]], scico: dict[str, Any]) -> None:
        """``flatten_*`` repeat ``tokens``/``mentions``; the writer recomputes them, unless they
        disagree here, in which case they are kept as they were (with a warning)."""
        flat_tokens = list(chain.from_iterable(paragraphs))
        if "flatten_tokens" in self.obj and self.obj["flatten_tokens"] != flat_tokens:
            self.warn("flatten_tokens", "differs from the concatenated paragraphs; kept as is")
            scico["flatten_tokens"] = self.obj["flatten_tokens"]
        if "flatten_mentions" in self.obj and isinstance(self.obj["mentions"], list):
            expected = flatten_mentions(paragraphs, self.obj["mentions"])
            if self.obj["flatten_mentions"] != expected:
                self.warn("flatten_mentions", "differs from the mentions; kept as is")
                scico["flatten_mentions"] = self.obj["flatten_mentions"]


def all_lists(tokens: Any) -> bool:
    """Whether ``tokens`` is a list of lists (whatever they hold)."""
    return type(tokens) is list and all(type(paragraph) is list for paragraph in tokens)


def all_token_lists(tokens: Any) -> bool:
    """Fast check that ``tokens`` is a list of lists of strings (True), without naming what is
    wrong otherwise (False): then :meth:`TopicParser.paragraphs` runs its exact check.

    ``str.join`` type-checks every item in C and raises TypeError on the first one that is not
    a ``str`` (a JSON decoder gives no ``str`` subclasses); paragraphs are checked to be lists
    first, as joining a string paragraph would iterate its characters.
    """
    if not all_lists(tokens):
        return False
    try:
        list(map("".join, tokens))
    except TypeError:
        return False
    return True
