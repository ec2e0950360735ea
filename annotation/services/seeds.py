"""A topic's seed: clusters an imported file hands every annotator as their starting point.

A CoRefi annotation-mode file marks one cluster (`selectedCluster`, its first mention carries
the `clustId`) for the annotator to complete; that is a task, not an answer, so it is not the
topic's gold (scoring annotators against one mention would read 0.0 everywhere). The import
keeps it in the topic's metadata (`SEED_KEY`) and each new annotator annotation starts from
it: one logged `seed` operation (annotation.models.SEED_OPERATION), like an import, so the
log replays, one undo takes it back, and an exported annotation gives the file's cluster ids
back. An annotation that holds only its seed counts as untouched (`Annotation.has_work`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from annotation.domain import effects as fx
from annotation.infra.bulk_sql import ids_reserve
from annotation.infra.effects_sql import effects_write
from annotation.models import SEED_OPERATION, Annotation, Cluster, Mention, Operation, Topic
from corefscore.corpus import TopicData

SEED_KEY = "seed"  # in Topic.metadata; never shown to annotators (selectors/shown_metadata.py)


def seed_of(topic: TopicData, *, mention_text: Callable[[int], str]) -> dict[str, Any]:
    """What the topic's metadata keeps of a seed file's clusters: each cluster's file key,
    label (the file's, else its first mention's text) and mention positions, in file order."""
    declared = {cluster.key: cluster.label for cluster in topic.clusters}
    clusters = []
    for key, members in topic.cluster_members().items():
        label = declared.get(key)
        clusters.append(
            {
                "key": key,
                "label": label if label is not None else mention_text(members[0]),
                "labelled": label is not None,
                "mentions": members,
            }
        )
    return {"clusters": clusters}


def seeds_write(annotations: Iterable[Annotation]) -> None:
    """Hand each new, empty annotator annotation its topic's seed (topics without one: none)."""
    annotations = [a for a in annotations if a.kind == Annotation.Kind.ANNOTATOR]
    seeds = dict(
        Topic.objects.filter(
            pk__in={a.topic_id for a in annotations}, metadata__has_key=SEED_KEY
        ).values_list("pk", f"metadata__{SEED_KEY}")
    )
    if not seeds:
        return
    mention_ids: dict[int, dict[int, int]] = {}
    for topic_id, position, id in Mention.objects.filter(
        topic_id__in=seeds, added_in__isnull=True
    ).values_list("topic_id", "position", "id"):
        mention_ids.setdefault(topic_id, {})[position] = id
    seeded = [a for a in annotations if a.topic_id in seeds]
    cluster_ids = iter(
        ids_reserve(Cluster, sum(len(seeds[a.topic_id]["clusters"]) for a in seeded))
    )
    operations = []
    for annotation in seeded:
        effects, payload = _seed_effects(
            seeds[annotation.topic_id], mention_ids[annotation.topic_id], cluster_ids
        )
        effects_write(annotation_id=annotation.pk, topic_id=annotation.topic_id, effects=effects)
        operations.append(
            Operation(
                annotation=annotation,
                version=1,
                kind=Operation.Kind.DO,
                name=SEED_OPERATION,
                user=None,
                payload=payload,
                effects=effects,
            )
        )
        annotation.version = 1
    Operation.objects.bulk_create(operations)
    Annotation.objects.filter(pk__in=[a.pk for a in seeded]).update(version=1)


def _seed_effects(
    seed: dict[str, Any], mention_ids: dict[int, int], cluster_ids: Iterable[int]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    effects: list[dict[str, Any]] = []
    keys: list[list[Any]] = []
    labelled: list[int] = []
    ids = iter(cluster_ids)
    for cluster in seed["clusters"]:
        id = next(ids)
        keys.append([id, cluster["key"]])
        if cluster["labelled"]:
            labelled.append(id)
        effects.append(fx.cluster_created(id, cluster["label"]))
        effects += [fx.member_set(mention_ids[p], None, id) for p in cluster["mentions"]]
    # The payload speaks like an import's (cluster keys, labelled clusters): exports read both.
    return effects, {"op": SEED_OPERATION, "clusters": keys, "labelled": labelled}
