"""The diagnosis of disagreement on one topic, from the database (docs/diagnosis.md; the diff itself
is `reporting/domain/diagnosis.py`; layout of the JSON and CSV: docs/diagnosis.md).

The sides are the topic's submitted annotator annotations (by name), or one annotator's (or
all of them) beside the topic's gold (`selectors.gold`: the latest submitted adjudication,
else the imported gold), named "gold". Each item carries every side's annotation and mention
ids, so the page can open the review view at that mention.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from annotation.domain.errors import NotFound
from annotation.models import Annotation, Project, Topic
from annotation.selectors.gold import gold_annotations
from annotation.selectors.state import annotation_state_load
from reporting.domain.diagnosis import (
    ClusterView,
    Diagnosis,
    MentionKey,
    Side,
    SideCluster,
    SideMention,
    diagnose,
)
from reporting.errors import DiagnosisRefused

GOLD = "gold"
CSV_HEADER = ["topic", "item", "what", "side", "cluster", "members", "has_it", "mention_id"]


def topic_diagnosis(
    project: Project, external_id: str, *, gold: bool = False, annotator: str = ""
) -> dict[str, Any]:
    """`{"topic", "gold", "sides": [{"name", "annotation", "kind"}], "mentions", "edges",
    "links"}` (docs/diagnosis.md) of the project's topic `external_id`."""
    topic = Topic.objects.filter(project=project, external_id=external_id).first()
    if topic is None:
        raise NotFound("topic", external_id, f"This project has no topic {external_id}.")
    work = list(
        Annotation.objects.submitted()
        .annotator_work()
        .filter(topic=topic)
        .select_related("assignment__user", "topic__project")
    )
    named = sorted(
        ((a.assignment_of_work.user.get_username(), a) for a in work), key=lambda item: item[0]
    )
    if annotator:
        named = [(name, a) for name, a in named if name == annotator]
        if not named:
            raise DiagnosisRefused(f"{annotator} has not submitted topic {topic.external_id}.")
    if gold:
        reference = gold_annotations(project, topic_ids=[topic.pk]).get(topic.pk)
        if reference is None:
            raise DiagnosisRefused(f"Topic {topic.external_id} has no gold yet.")
        named = [(GOLD, reference), *((name, a) for name, a in named if name != GOLD)]
    if len(named) < 2:
        raise DiagnosisRefused(
            f"Topic {topic.external_id} needs two submitted annotations (or one and gold) "
            "to compare."
        )
    sides = [_side(name, annotation) for name, annotation in named]
    result = diagnose(sides)
    return _json(topic, gold, named, result)


def _side(name: str, annotation: Annotation) -> Side:
    state = annotation_state_load(annotation)
    text = state.mention_text
    keys: dict[int, MentionKey] = {}
    mentions = []
    for mention in sorted(state.mentions.values(), key=lambda m: (m.document, _spans(m.spans))):
        if mention.rejected:
            continue
        key = (mention.document, _spans(mention.spans))
        keys[mention.id] = key
        mentions.append(SideMention(mention.id, key, text(mention) if text else str(key)))
    positions: dict[int, int] = {}
    clusters: list[SideCluster] = []
    for cluster in state.clusters.values():
        members = tuple(keys[m] for m in sorted(cluster.members) if m in keys)
        if not members:
            continue
        positions[cluster.id] = len(clusters)
        clusters.append(SideCluster(cluster.label, members))
    edges = tuple(
        (positions[parent], positions[child])
        for parent, child in sorted(state.edges)
        if parent in positions and child in positions
    )
    links = tuple(
        (link.type, keys[link.anaphor], keys[link.antecedent])
        for link in sorted(state.links)
        if link.anaphor in keys and link.antecedent in keys
    )
    return Side(name, tuple(mentions), tuple(clusters), edges, links)


def _spans(spans: Any) -> tuple[tuple[int, int], ...]:
    return tuple((int(start), int(end)) for start, end in spans)


def _cluster(view: ClusterView | None) -> dict[str, Any] | None:
    if view is None:
        return None
    return {
        "label": view.label or (view.members[0] if view.members else ""),
        "members": list(view.members),
    }


def _json(
    topic: Topic, gold: bool, named: list[tuple[str, Annotation]], result: Diagnosis
) -> dict[str, Any]:
    return {
        "topic": {"id": topic.pk, "external_id": topic.external_id},
        "gold": gold,
        "sides": [
            {"name": name, "annotation": annotation.pk, "kind": annotation.kind}
            for name, annotation in named
        ],
        "mentions": [
            {
                "text": item.text,
                "document": item.key[0],
                "spans": [list(span) for span in item.key[1]],
                "ids": item.ids,
                "clusters": {name: _cluster(view) for name, view in item.clusters.items()},
            }
            for item in result.mentions
        ],
        "edges": [
            {
                "parent": _cluster(item.parent),
                "child": _cluster(item.child),
                "present": list(item.present),
                "absent": list(item.absent),
            }
            for item in result.edges
        ],
        "links": [
            {
                "type": item.type,
                "anaphor": item.anaphor,
                "antecedent": item.antecedent,
                "anaphor_ids": item.anaphor_ids,
                "present": list(item.present),
                "absent": list(item.absent),
            }
            for item in result.links
        ],
    }


def diagnosis_csv(result: dict[str, Any]) -> str:
    """One row per item and side (docs/diagnosis.md, "CSV")."""
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    topic = result["topic"]["external_id"]
    names = [side["name"] for side in result["sides"]]
    for item in result["mentions"]:
        for name in names:
            cluster = item["clusters"][name]
            writer.writerow(
                [
                    topic,
                    "mention",
                    item["text"],
                    name,
                    "" if cluster is None else cluster["label"],
                    "" if cluster is None else " | ".join(cluster["members"]),
                    "no" if cluster is None else "yes",
                    item["ids"][name] or "",
                ]
            )
    for item in result["edges"]:
        what = f"{item['parent']['label']} -> {item['child']['label']}"
        for name in names:
            writer.writerow([topic, "edge", what, name, "", "", _has(name, item), ""])
    for item in result["links"]:
        what = f"{item['type']}: {item['anaphor']} -> {item['antecedent']}"
        for name in names:
            writer.writerow(
                [
                    topic,
                    "link",
                    what,
                    name,
                    "",
                    "",
                    _has(name, item),
                    item["anaphor_ids"][name] or "",
                ]
            )
    return stream.getvalue()


def _has(name: str, item: dict[str, Any]) -> str:
    return "yes" if name in item["present"] else "no"
