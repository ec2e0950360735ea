"""Topics for the browser tests and the benchmark, written straight into the database."""

from __future__ import annotations

from annotation.models import Document, Mention, Project, Topic
from corefscore.corpus import TopicData
from corefscore.formats.chemu import read_chemu_jsonlines
from corefscore.formats.scico import read_scico_jsonl
from tests.paths import DEMO


def scico_demo_topic(index: int = 0) -> TopicData:
    return read_scico_jsonl(DEMO / "scico_demo.jsonl").topics[index]


def chemu_demo_topics() -> list[TopicData]:
    return read_chemu_jsonlines(DEMO / "chemu_demo.jsonlines").topics


def chemu_demo_topic(count: int = 3) -> TopicData:
    """The first `count` ChEMU demo snippets as one topic of `count` documents (links kept)."""
    from corefscore.corpus import LinkData, MentionData

    parts = chemu_demo_topics()[:count]
    merged = TopicData(external_id="chemu-demo", source="chemu demo")
    for part in parts:
        offset_doc, offset_mention = len(merged.documents), len(merged.mentions)
        merged.documents.extend(part.documents)
        merged.mentions.extend(MentionData(m.document + offset_doc, m.spans) for m in part.mentions)
        merged.links.extend(
            LinkData(link.type, link.anaphor + offset_mention, link.antecedent + offset_mention)
            for link in part.links
        )
    return merged


def mention_ids(topic: Topic) -> list[int]:
    return list(
        topic.mentions.filter(added_in__isnull=True)
        .order_by("position")
        .values_list("id", flat=True)
    )


def apply_ops(annotation, user, ops: list[dict]) -> list:
    """Apply operations through the service, as the API would (committed, broadcast)."""
    from annotation.models import Annotation
    from annotation.services.operations import annotation_operation_apply

    version = Annotation.objects.get(pk=annotation.pk).version
    results = []
    for op in ops:
        applied = annotation_operation_apply(
            annotation_id=annotation.pk,
            user=user,
            payload=op,
            expected_version=version,
            client_id="test-setup",
        )
        version = applied.version
        results.append(applied)
    return results


def topic_from_data(project: Project, data: TopicData, *, external_id: str | None = None) -> Topic:
    """The documents and candidate mentions of `data` (its annotation, if any, is left out)."""
    topic = Topic.objects.create(
        project=project,
        external_id=external_id or data.external_id,
        source=data.source,
        metadata=data.metadata,
    )
    documents = Document.objects.bulk_create(
        Document(
            topic=topic,
            position=i,
            doc_id=d.doc_id,
            tokens=d.tokens,
            token_count=len(d.tokens),
            sentences=[list(s) for s in d.sentences],
            metadata=d.metadata,
        )
        for i, d in enumerate(data.documents)
    )
    Mention.objects.bulk_create(
        Mention(
            topic=topic,
            document=documents[m.document],
            spans=[list(s) for s in m.spans],
            position=i,
        )
        for i, m in enumerate(data.mentions)
    )
    return topic


def gold_partition(data: TopicData) -> list[list[int]]:
    """Gold clusters as lists of mention indices (in mention order), in order of first mention."""
    clusters: dict[str, list[int]] = {}
    for index, mention in enumerate(data.mentions):
        clusters.setdefault(mention.cluster or f"singleton-{index}", []).append(index)
    return list(clusters.values())


def apply_gold(
    annotation, user, data: TopicData, ids: list[int], *, relations: bool = True, links: bool = True
):
    """Build the file's own annotation (clusters, hierarchy, links) through operations."""
    cluster_ids: dict[str, int] = {}
    for index, mention in enumerate(data.mentions):
        if mention.cluster is None:
            continue
        target = cluster_ids.get(mention.cluster)
        (applied,) = apply_ops(
            annotation, user, [{"op": "assign", "mention": ids[index], "cluster": target}]
        )
        if target is None:
            cluster_ids[mention.cluster] = applied.created["cluster"]
    if relations:
        apply_ops(
            annotation,
            user,
            [
                {"op": "add_edge", "parent": cluster_ids[parent], "child": cluster_ids[child]}
                for parent, child in data.relations
            ],
        )
    if links:
        apply_ops(
            annotation,
            user,
            [
                {
                    "op": "add_link",
                    "type": link.type,
                    "anaphor": ids[link.anaphor],
                    "antecedent": ids[link.antecedent],
                }
                for link in data.links
            ],
        )
    return cluster_ids


def annotate_and_submit(topic: Topic, username: str, clusters: list[list[int]]) -> None:
    """A new user's submitted annotation of `topic`: `clusters` as indices of its mentions."""
    from annotation.services.assignments import assignment_submit
    from tests.factories import UserFactory, assign

    user = UserFactory(username=username)
    assignment, stored = assign(topic, user)
    ids = mention_ids(topic)
    for cluster in clusters:
        created = apply_ops(
            stored, user, [{"op": "assign", "mention": ids[cluster[0]], "cluster": None}]
        )
        target = created[0].created["cluster"]
        apply_ops(
            stored,
            user,
            [{"op": "assign", "mention": ids[m], "cluster": target} for m in cluster[1:]],
        )
    assignment_submit(assignment_id=assignment.pk, user=user)
