"""What the validation workspace reads: the clusters to validate and the decisions so far.

A validation topic's clusters are its imported annotation (the `gold` row that
`import_topics --as validation` or a suggestion run writes): every validator decides on the
members of those clusters, and their own annotation holds only decisions (`validation_set`
effects), never a copy of the clusters. So the input stays one thing, a validator's work is
exactly their decisions, and the validated clustering is "the input without the rejected
mentions", computed where it is needed (reports, exports, conversion).

Confidence: a member's confidence is read from the mention's metadata: `confidence` (what the
suggestion-run source writes) or a `confidence`/`score`/`probability` field that a format
kept among its extras (a CoRefi mention object's own fields, say).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from annotation.domain import history
from annotation.models import (
    Annotation,
    Assignment,
    ClusterMember,
    Document,
    Mention,
    ValidationDecision,
)
from annotation.models import Cluster as ClusterRow
from annotation.selectors.log import operation_log
from annotation.selectors.state import mention_text

CONFIDENCE_KEYS = ("confidence", "score", "probability")


def mention_confidence(metadata: dict[str, Any] | None) -> float | None:
    """The member's confidence in [0, 1] where the import carried one, else None."""
    if not metadata:
        return None
    places = [metadata, *(v for v in metadata.values() if isinstance(v, dict))]
    for place in places:
        for key in CONFIDENCE_KEYS:
            value = place.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
    return None


def input_annotation(topic_id: int) -> Annotation | None:
    """The clustering to validate: the topic's imported annotation."""
    return Annotation.objects.filter(topic_id=topic_id, kind=Annotation.Kind.GOLD).first()


def input_clusters(topic_id: int) -> dict[int, tuple[int, str]]:
    """mention id -> (input cluster id, cluster label), for every mention to validate."""
    source = input_annotation(topic_id)
    if source is None:
        return {}
    labels = dict(ClusterRow.objects.filter(annotation=source).values_list("id", "label"))
    return {
        mention: (cluster, labels[cluster])
        for mention, cluster in ClusterMember.objects.filter(annotation=source).values_list(
            "mention_id", "cluster_id"
        )
    }


def _member_order(members: list[dict[str, Any]], texts: dict[int, str]) -> list[dict[str, Any]]:
    """Most confident first where confidences exist; otherwise the most typical first (the
    members whose text most other members share, a cheap centrality), then document order."""
    counts = Counter(texts[m["id"]].lower() for m in members)
    return sorted(
        members,
        key=lambda m: (
            -(m["confidence"] if m["confidence"] is not None else -1.0),
            -counts[texts[m["id"]].lower()],
            m["order"],
        ),
    )


def validation_payload(annotation: Annotation) -> dict[str, Any]:
    """Everything the workspace needs in one answer: documents, the clusters with their members
    in showing order, the mentions to decide (document order), the reasons, the decisions so
    far, undo/redo, and for a consolidating adjudicator the validators' decisions."""
    topic = annotation.topic
    project = topic.project
    documents = list(
        Document.objects.filter(topic=topic)
        .order_by("position")
        .values("id", "position", "doc_id", "tokens", "sentences", "metadata")
    )
    tokens = {d["id"]: d["tokens"] for d in documents}
    position = {d["id"]: d["position"] for d in documents}
    membership = input_clusters(topic.pk)
    rows = (
        Mention.objects.filter(topic=topic, added_in__isnull=True)
        .order_by("position", "id")
        .values_list("id", "document_id", "spans", "metadata")
    )
    items: list[dict[str, Any]] = []
    texts: dict[int, str] = {}
    for id, document, spans, metadata in rows:
        if id not in membership:
            continue  # a mention outside every input cluster has nothing to be validated against
        texts[id] = mention_text(tokens[document], spans)
        items.append(
            {
                "id": id,
                "document": document,
                "spans": spans,
                "cluster": membership[id][0],
                "confidence": mention_confidence(metadata),
                "order": len(items),
            }
        )
    items.sort(key=lambda m: (position[m["document"]], m["spans"][0][0], m["order"]))
    for order, item in enumerate(items):
        item["order"] = order
    by_cluster: dict[int, list[dict[str, Any]]] = {}
    for item in items:
        by_cluster.setdefault(item["cluster"], []).append(item)
    clusters = [
        {
            "id": cluster,
            "label": membership[members[0]["id"]][1],
            "members": [m["id"] for m in _member_order(members, texts)],
        }
        for cluster, members in by_cluster.items()
    ]
    undoable, redoable = history.stacks(operation_log(annotation.pk))
    assignment = annotation.assignment
    return {
        "id": annotation.pk,
        "kind": annotation.kind,
        "version": annotation.version,
        "status": assignment.status if assignment else "gold",
        "assignment": assignment.pk if assignment else None,
        "annotator": assignment.user.username if assignment else None,
        "cursor": annotation.cursor,
        "can_undo": bool(undoable),
        "can_redo": bool(redoable),
        "topic": {
            "id": topic.pk,
            "external_id": topic.external_id,
            "source": topic.source,
            "metadata": topic.metadata,
        },
        "project": {"id": project.pk, "name": project.name, "guidelines": project.guidelines},
        "reasons": project.validation_reasons,
        "documents": documents,
        "clusters": clusters,
        "mentions": [{k: v for k, v in item.items() if k != "order"} for item in items],
        "decisions": {
            str(mention): {"decision": decision, "reason": reason or None, "note": note}
            for mention, decision, reason, note in ValidationDecision.objects.filter(
                annotation=annotation
            ).values_list("mention_id", "decision", "reason", "note")
        },
        "others": _validators_decisions(annotation),
    }


def _validators_decisions(annotation: Annotation) -> dict[str, dict[str, dict[str, Any]]]:
    """For a consolidating adjudicator: each validator's decisions on the topic, by username;
    empty for a validator (their work stays independent)."""
    if annotation.kind != Annotation.Kind.ADJUDICATION:
        return {}
    rows = ValidationDecision.objects.filter(
        annotation__topic_id=annotation.topic_id,
        annotation__kind=Annotation.Kind.ANNOTATOR,
        annotation__assignment__role=Assignment.Role.ANNOTATOR,
    ).values_list(
        "annotation__assignment__user__username", "mention_id", "decision", "reason", "note"
    )
    others: dict[str, dict[str, dict[str, Any]]] = {}
    for username, mention, decision, reason, note in rows:
        others.setdefault(username, {})[str(mention)] = {
            "decision": decision,
            "reason": reason or None,
            "note": note,
        }
    return others
