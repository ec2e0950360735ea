"""Validation of the parts of a CoRefi file (see :mod:`corefscore.formats.corefi`).
Records are JSON paths (``mentions[3]``), fields are keys (``end``)."""

from __future__ import annotations

from typing import Any

from corefscore.corpus import DocumentData, MentionData
from corefscore.formats._io import is_int
from corefscore.formats.errors import Problems

FORMAT = "corefi"
TOKEN_FIELDS = ("i", "document", "paragraph", "doc_name", "text")


def parse_documents(
    tokens: list[Any], problems: Problems
) -> tuple[list[DocumentData] | None, list[tuple[int, int]]]:
    """Documents (one per run of tokens with the same document and paragraph) and, for each
    global token index, (document index, offset in it)."""
    documents: list[DocumentData] = []
    place: list[tuple[int, int]] = []
    seen_groups: dict[tuple[Any, Any], int] = {}
    current: tuple[Any, Any] | None = None
    bad = False
    for k, token in enumerate(tokens):
        record = f"tokens[{k}]"
        if not isinstance(token, dict):
            problems.error(record, None, "a token must be an object")
            bad = True
            continue
        for name, valid, expected in (
            ("i", is_int, "an integer"),
            ("document", is_int, "an integer"),
            ("text", lambda v: isinstance(v, str), "a string"),
        ):
            if not valid(token.get(name)):
                problems.error(
                    record, name, "missing" if name not in token else f"must be {expected}"
                )
                bad = True
        if "paragraph" in token and not is_int(token["paragraph"]):
            problems.error(record, "paragraph", "must be an integer")
            bad = True
        if bad:
            continue
        if token["i"] != k:
            problems.error(
                record, "i", f"is {token['i']}, expected {k} (tokens must be listed in order)"
            )
            bad = True
            continue
        group = (token["document"], token.get("paragraph"))
        if group != current:
            if group in seen_groups:
                problems.error(
                    record,
                    "document",
                    f"document {group[0]}"
                    + (f" paragraph {group[1]}" if group[1] is not None else "")
                    + f" resumes after other tokens (it started at tokens[{seen_groups[group]}])",
                )
                bad = True
                continue
            seen_groups[group] = k
            current = group
            metadata: dict[str, Any] = {"document": token["document"]}
            if "paragraph" in token:
                metadata["paragraph"] = token["paragraph"]
            if "doc_name" in token:
                metadata["doc_name"] = token["doc_name"]
            doc_id = str(token.get("doc_name", token["document"]))
            documents.append(DocumentData(doc_id=doc_id, tokens=[], metadata=metadata))
        document = documents[-1]
        if token.get("doc_name") != document.metadata.get("doc_name"):
            problems.error(
                record,
                "doc_name",
                f"{token.get('doc_name')!r} differs from the rest of its document "
                f"({document.metadata.get('doc_name')!r})",
            )
            bad = True
        extra = {key: value for key, value in token.items() if key not in TOKEN_FIELDS}
        if extra:
            document.metadata.setdefault("token_extra", {})[str(len(document.tokens))] = extra
        place.append((len(documents) - 1, len(document.tokens)))
        document.tokens.append(token["text"])
    return (None if bad else documents), place


def parse_mentions(
    values: list[Any], place: list[tuple[int, int]], problems: Problems
) -> list[MentionData]:
    mentions: list[MentionData] = []
    seen: dict[tuple[int, int], int] = {}
    for k, value in enumerate(values):
        record = f"mentions[{k}]"
        if not isinstance(value, dict):
            problems.error(record, None, "a mention must be an object")
            continue
        ok = True
        for name in ("start", "end"):
            offset = value.get(name)
            if not is_int(offset):
                problems.error(
                    record, name, "missing" if name not in value else "must be an integer"
                )
                ok = False
            elif not 0 <= offset < len(place):
                problems.error(
                    record,
                    name,
                    f"token {offset} does not exist (the file has {len(place)} tokens)",
                )
                ok = False
        if not ok:
            continue
        start, end = value["start"], value["end"]
        if start > end:
            problems.error(record, None, f"start {start} is after end {end}")
            continue
        if place[start][0] != place[end][0]:
            problems.error(
                record, None, f"tokens {start}-{end} cross a document or paragraph boundary"
            )
            continue
        if (start, end) in seen:
            problems.error(
                record, None, f"duplicate of mentions[{seen[(start, end)]}] (tokens {start}-{end})"
            )
            continue
        seen[(start, end)] = k
        cluster = value.get("clustId")
        if cluster is not None and not isinstance(cluster, (str, int)) or isinstance(cluster, bool):
            problems.error(record, "clustId", "must be a string")
            continue
        extra = {key: v for key, v in value.items() if key not in ("start", "end", "clustId")}
        metadata = {FORMAT: extra} if extra else {}
        if is_int(cluster):
            metadata.setdefault(FORMAT, {})["int_clustId"] = True
        document, offset = place[start]
        spans = ((offset, offset + end - start),)
        mentions.append(
            MentionData(
                document=document,
                spans=spans,
                cluster=None if cluster is None else str(cluster),
                metadata=metadata,
            )
        )
    return mentions


def parse_labels(value: Any, problems: Problems) -> dict[str, str]:
    if value is None:
        return {}
    labels: dict[str, str] = {}
    if not isinstance(value, list):
        problems.error("clustersDesc", None, "must be a list of {clustId, text}")
        return labels
    for k, entry in enumerate(value):
        if not (
            isinstance(entry, dict)
            and all(isinstance(entry.get(key), str) for key in ("clustId", "text"))
        ):
            problems.error(f"clustersDesc[{k}]", None, 'must be {"clustId": ..., "text": ...}')
            continue
        labels[entry["clustId"]] = entry["text"]
    return labels


def check_references(
    obj: dict[str, Any], clusters: set[str], size: int, problems: Problems
) -> None:
    """Task data that points into the tokens or the clusters: offsets must exist (error);
    a cluster that no mention has is only worth a warning (onboarding files name gold ones)."""
    selected = obj.get("selectedCluster")
    if selected is not None and str(selected) not in clusters:
        problems.warn(
            "selectedCluster", None, f"cluster {selected} is not the cluster of any mention"
        )
    gold = obj.get("goldMentions")
    if gold is None:
        return
    if not isinstance(gold, list):
        problems.error("goldMentions", None, "must be a list of mentions")
        return
    for k, mention in enumerate(gold):
        record = f"goldMentions[{k}]"
        if not isinstance(mention, dict):
            problems.error(record, None, "a mention must be an object")
            continue
        for name in ("start", "end"):
            offset = mention.get(name)
            if not is_int(offset) or not 0 <= offset < size:
                problems.error(
                    record, name, f"token {offset} does not exist (the file has {size} tokens)"
                )
