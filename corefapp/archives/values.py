"""The values of an archive checked by the rules the live tables and the domain apply, before
anything is written: an archive is someone's file, and a value of the right JSON type can
still break the annotation that reads it (`spans: "x"` made the annotation, its undo and the
export answer 500).

Checked here, each refusal naming the member, its line and the column: spans of mentions and
span edits, by the operations' own rules (annotation/domain/operations: pairs of token
offsets, inside the document, in order, not overlapping); a mention's document on the
mention's topic; an annotation's version equal to its log (operations 1..n). The logs
themselves are replayed after writing (importer.py), where the domain loads them."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from annotation.domain.errors import DomainError
from annotation.domain.operations.mentions import check_spans
from annotation.domain.operations.payload import Payload
from annotation.domain.state import AnnotationState
from corefapp.archives.export import table_file
from corefapp.archives.json_ids import ArchiveInvalid


def values_check(rows: dict[str, list[dict[str, Any]]]) -> None:
    documents = {row["id"]: row for row in rows["annotation.document"]}
    annotations = {row["id"]: row for row in rows["annotation.annotation"]}
    for n, document in enumerate(rows["annotation.document"], 1):
        where = f"{table_file('annotation.document')} line {n}"
        tokens = document["tokens"]
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise ArchiveInvalid(f"{where}, tokens: not a list of words")
        if document["token_count"] != len(tokens):
            raise ArchiveInvalid(
                f"{where}, token_count: {document['token_count']} where the document has "
                f"{len(tokens)} words"
            )
    # Per topic, its documents in order: messages number them as the workspace does.
    topics: dict[int, dict[int, int]] = defaultdict(dict)
    for document in sorted(documents.values(), key=lambda d: (d["position"], d["id"])):
        topics[document["topic_id"]][document["id"]] = document["token_count"]
    mentions = {}
    for n, mention in enumerate(rows["annotation.mention"], 1):
        where = f"{table_file('annotation.mention')} line {n}"
        document = documents[mention["document_id"]]
        if document["topic_id"] != mention["topic_id"]:
            raise ArchiveInvalid(
                f"{where}, document_id: the document is on another topic than the mention"
            )
        added_in = annotations.get(mention["added_in_id"])
        if added_in is not None and added_in["topic_id"] != mention["topic_id"]:
            raise ArchiveInvalid(f"{where}, added_in_id: added in an annotation of another topic")
        _spans(mention["spans"], document, topics, f"{where}, spans")
        mentions[mention["id"]] = document
    for n, edit in enumerate(rows["annotation.mentionedit"], 1):
        if edit["spans"] is not None:
            where = f"{table_file('annotation.mentionedit')} line {n}, spans"
            _spans(edit["spans"], mentions[edit["mention_id"]], topics, where)
    _versions_check(rows)


def _spans(
    value: Any, document: dict[str, Any], topics: dict[int, dict[int, int]], where: str
) -> None:
    """The operations' rules on spans: shape (Payload), then place and order (check_spans,
    with the topic's documents and no mention: candidates may share spans)."""
    state = AnnotationState(documents=topics[document["topic_id"]])
    try:
        check_spans(state, document["id"], Payload({"spans": value}).spans("spans"))
    except DomainError as error:
        raise ArchiveInvalid(f"{where}: {error.message}") from None


def _versions_check(rows: dict[str, list[dict[str, Any]]]) -> None:
    """Each operation makes one version: an annotation at version n has logged 1..n."""
    logged: dict[int, list[int]] = defaultdict(list)
    for operation in rows["annotation.operation"]:
        logged[operation["annotation_id"]].append(operation["version"])
    for n, annotation in enumerate(rows["annotation.annotation"], 1):
        versions = sorted(logged[annotation["id"]])
        if versions != list(range(1, len(versions) + 1)) or annotation["version"] != len(versions):
            raise ArchiveInvalid(
                f"{table_file('annotation.annotation')} line {n}, version: the annotation is "
                f"at version {annotation['version']}, its log holds {len(versions)} "
                "operation(s) numbered "
                f"{_numbers(versions)}; they must be 1 to the annotation's version"
            )


def _numbers(versions: list[int]) -> str:
    if not versions:
        return "none"
    shown = ", ".join(map(str, versions[:5]))
    return shown + (", ..." if len(versions) > 5 else "")
