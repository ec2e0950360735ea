"""The effects that write a file's annotation into an annotation, shared by the gold import
and the import of an annotator's file.

An imported annotation is logged like any other change (one `import` operation whose effects
create its clusters, members, edges and links), so replaying the log still reproduces the
stored state and undo works on it as on anything else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from annotation.domain import effects as fx
from annotation.domain.state import Link
from annotation.infra.bulk_sql import ids_reserve
from annotation.models import Cluster
from corefscore.corpus import TopicData


def cluster_ids_reserve(count: int) -> list[int]:
    """`count` new cluster ids in one round trip (an import of 900 topics would otherwise draw
    thousands of ids one query at a time)."""
    return ids_reserve(Cluster, count)


def clusters_needed(topic: TopicData) -> int:
    return len(topic.cluster_members())


@dataclass
class ImportPlan:
    effects: list[dict[str, Any]] = field(default_factory=list)
    # [[server id, file key], ...] in the file's order, kept in the operation's payload so that
    # exports give the clusters back their keys and order (CoRefi's clustersDesc refers to them).
    clusters: list[list[Any]] = field(default_factory=list)
    # Clusters the file labelled: their label is exported even when it equals the default.
    labelled: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def import_plan(
    topic: TopicData,
    *,
    mention_ids: Sequence[int],
    mention_text: Callable[[int], str],
    cluster_ids: Iterator[int],
) -> ImportPlan:
    """Effects creating `topic`'s clusters, members, edges and links.

    `mention_ids[k]` is the server id of `topic.mentions[k]`; `mention_text(k)` its text (the
    default label of a cluster the file does not name); `cluster_ids` yields fresh ids."""
    plan = ImportPlan()
    members = topic.cluster_members()
    declared = {cluster.key: cluster for cluster in topic.clusters}
    server: dict[str, int] = {}
    # The file's cluster order first (brat numbers its sets, CoRefi lists clustersDesc), then any
    # key only mentions use; a declared cluster without mentions would be an empty cluster,
    # which no annotation state holds.
    for key in dict.fromkeys([*declared, *members]):
        if key not in members:
            continue
        cluster = declared.get(key)
        label = cluster.label if cluster is not None else None
        named = label is not None
        if label is None:
            label = mention_text(members[key][0])
        server[key] = next(cluster_ids)
        plan.clusters.append([server[key], key])
        if named:
            plan.labelled.append(server[key])
        plan.effects.append(
            fx.cluster_created(server[key], label, cluster.note if cluster is not None else "")
        )
        for name, value in sorted((cluster.attributes if cluster is not None else {}).items()):
            plan.effects.append(fx.cluster_attribute_set(server[key], name, None, value))
    for index, mention in enumerate(topic.mentions):
        if mention.cluster is not None:
            plan.effects.append(fx.member_set(mention_ids[index], None, server[mention.cluster]))
    for parent, child in dict.fromkeys(topic.relations):
        if parent not in server or child not in server:
            plan.warnings.append(
                f"relation {parent} -> {child} names a cluster without mentions; left out"
            )
            continue
        plan.effects.append(fx.edge_added(server[parent], server[child]))
    seen: set[Link] = set()
    for number, link in enumerate(topic.links):
        item = Link(link.type, mention_ids[link.anaphor], mention_ids[link.antecedent])
        if item.anaphor == item.antecedent:
            plan.warnings.append(f"link {number} ({link.type}) links a mention to itself; left out")
        elif item not in seen:
            seen.add(item)
            plan.effects.append(fx.link_added(item))
            # What the file wrote on the link (brat's notes and attributes, our JSON).
            if link.note:
                plan.effects.append(fx.link_note_set(item, "", link.note))
            for name, value in sorted(link.attributes.items()):
                plan.effects.append(fx.link_attribute_set(item, name, None, value))
    return plan
