"""Write the clusters to validate into a topic that has none yet (a suggestion run's clusters,
a test's): the topic's imported annotation, logged as one `import` operation like any
import, with each member's confidence kept in its mention's metadata."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from annotation.domain import effects as fx
from annotation.errors import ImportRefused
from annotation.infra.effects_sql import effects_write
from annotation.models import Annotation, Document, Mention, Operation, Topic
from annotation.selectors.state import mention_text
from annotation.services.imports.effects import cluster_ids_reserve


@dataclass(frozen=True)
class ClusterToValidate:
    """Members are mention ids; `confidences[i]` is members[i]'s, when there is one."""

    members: Sequence[int]
    label: str = ""
    confidences: Sequence[float | None] = ()


@transaction.atomic
def validation_input_write(
    *, topic: Topic, clusters: Sequence[ClusterToValidate], user=None, source: str = ""
) -> Annotation:
    if Annotation.objects.filter(topic=topic, kind=Annotation.Kind.GOLD).exists():
        raise ImportRefused(f"topic {topic.external_id} already has clusters to validate", [])
    clusters = [c for c in clusters if c.members]
    rows = {
        id: (document, spans, metadata)
        for id, document, spans, metadata in Mention.objects.filter(
            topic=topic, added_in__isnull=True
        ).values_list("id", "document_id", "spans", "metadata")
    }
    wanted = [m for c in clusters for m in c.members]
    unknown = [m for m in wanted if m not in rows]
    if unknown or len(set(wanted)) != len(wanted):
        raise ImportRefused(
            f"topic {topic.external_id}: the clusters name unknown or repeated mentions", []
        )
    tokens = dict(Document.objects.filter(topic=topic).values_list("id", "tokens"))
    effects: list[dict] = []
    for id, cluster in zip(cluster_ids_reserve(len(clusters)), clusters, strict=True):
        first = rows[cluster.members[0]]
        label = cluster.label or mention_text(tokens[first[0]], first[1])
        effects.append(fx.cluster_created(id, label))
        effects += [fx.member_set(m, None, id) for m in cluster.members]
        # A cluster without confidences has none for any member; a partial list is a bug.
        confidences = cluster.confidences or (None,) * len(cluster.members)
        for member, confidence in zip(cluster.members, confidences, strict=True):
            if confidence is not None:
                metadata = {**rows[member][2], "confidence": round(float(confidence), 6)}
                Mention.objects.filter(pk=member).update(metadata=metadata)
    annotation = Annotation.objects.create(topic=topic, kind=Annotation.Kind.GOLD, version=1)
    effects_write(annotation_id=annotation.pk, topic_id=topic.pk, effects=effects)
    Operation.objects.create(
        annotation=annotation,
        version=1,
        name="import",
        user=user,
        payload={"op": "import", "format": "validation", "file": source},
        effects=effects,
    )
    return annotation
