"""Load an external annotation of a topic (an annotator's SciCo file, say) into an assignment.

Used by admins and by the agreement demo. The file's mentions are matched to the topic's
candidate mentions by (document position, spans); the result is logged as one `import`
operation, so it can be undone and its log replays like any other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from annotation.domain.effects import apply_effects, invert_effects
from annotation.domain.errors import CorruptEffects
from annotation.domain.invariants import invariant_violations
from annotation.domain.state import AnnotationState
from annotation.domain.state import Mention as StateMention
from annotation.errors import ImportRefused
from annotation.infra.effects_sql import effects_write
from annotation.models import (
    SEED_OPERATION,
    Annotation,
    Assignment,
    Cluster,
    ClusterMember,
    Document,
    HierarchyEdge,
    Mention,
    MentionEdit,
    Operation,
    RelationLink,
)
from annotation.selectors.access import annotation_edit_check
from annotation.selectors.state import mention_text, project_settings
from annotation.services.imports.effects import cluster_ids_reserve, clusters_needed, import_plan
from corefscore.corpus import TopicData
from foundation import broadcast
from foundation.side_effects import after_commit


@dataclass
class AnnotationImported:
    annotation_id: int
    version: int
    operation_id: int
    warnings: list[str] = field(default_factory=list)
    unmatched: int = 0  # candidate mentions the file does not mention (left unassigned)


@transaction.atomic
def annotation_import_for_assignment(
    *, assignment: Assignment, topic: TopicData, user=None, file: str = ""
) -> AnnotationImported:
    """Write `topic`'s clusters, relations and links into the assignment's (empty) annotation."""
    annotation = (
        Annotation.objects.select_for_update(of=("self",))
        .select_related("topic__project", "assignment")
        .get(assignment=assignment)
    )
    # An import acts for the annotator (no user to check): only the state rule applies.
    annotation_edit_check(
        None,
        annotation_id=annotation.pk,
        owner_id=assignment.user_id,
        status=annotation.assignment_of_work.status,
    )
    where = file or topic.external_id
    # An annotation that holds only the seed it was handed (services/seeds.py) is untouched:
    # the file's annotation replaces the seed, in the same operation.
    seed = [] if annotation.has_work else _seed_effects(annotation)
    if not seed and not _is_empty(annotation):
        raise ImportRefused(
            f"{where}: the annotation of {assignment.user} on topic {annotation.topic.external_id} "
            "is not empty; an import needs an empty annotation",
            [],
        )
    documents = list(
        Document.objects.filter(topic_id=annotation.topic_id)
        .order_by("position")
        .values_list("id", "tokens")
    )
    candidates = list(
        Mention.objects.filter(topic_id=annotation.topic_id, added_in__isnull=True).values_list(
            "id", "document_id", "spans"
        )
    )
    mention_ids = _matched_mentions(annotation, topic, documents, candidates, where)
    plan = import_plan(
        topic,
        mention_ids=mention_ids,
        cluster_ids=iter(cluster_ids_reserve(clusters_needed(topic))),
        mention_text=lambda k: mention_text(
            documents[topic.mentions[k].document][1], topic.mentions[k].spans
        ),
    )
    # An empty annotation's state is the topic's candidates: built from the rows at hand.
    state = AnnotationState(
        settings=project_settings(annotation.topic.project),
        documents={id: len(tokens) for id, tokens in documents},
        mentions={
            id: StateMention(id=id, document=document, spans=spans)
            for id, document, spans in candidates
        },
    )
    effects = invert_effects(seed) + plan.effects
    try:
        apply_effects(state, seed)  # the annotation as it is
        apply_effects(state, effects)
    except CorruptEffects as error:
        raise ImportRefused(
            f"{where}: the annotation cannot be applied ({error})", [str(error)]
        ) from None
    # Imported data may break editing rules (several parents, a link whose antecedent comes
    # later); like gold data it is kept, and the admin is told.
    warnings = plan.warnings + invariant_violations(state)
    effects_write(annotation_id=annotation.pk, topic_id=annotation.topic_id, effects=effects)
    annotation.version += 1
    Annotation.objects.filter(pk=annotation.pk).update(
        version=annotation.version, updated_at=timezone.now()
    )
    operation = Operation.objects.create(
        annotation=annotation,
        version=annotation.version,
        kind=Operation.Kind.DO,
        name="import",
        user=user,
        payload={
            "op": "import",
            "file": file,
            "clusters": plan.clusters,
            "labelled": plan.labelled,
        },
        effects=effects,
        warnings=warnings,
    )
    Assignment.objects.filter(pk=assignment.pk).update(status=Assignment.Status.IN_PROGRESS)
    assignment.status = Assignment.Status.IN_PROGRESS
    message = {
        "operation_id": operation.pk,
        "version": annotation.version,
        "name": "import",
        "kind": "do",
        "effects": effects,
        "warnings": warnings,
        "created": {},
        "client_id": "",
    }
    after_commit(broadcast.annotation_applied, annotation.pk, message)
    unmatched = len(candidates) - len(set(mention_ids))
    return AnnotationImported(annotation.pk, annotation.version, operation.pk, warnings, unmatched)


def _seed_effects(annotation: Annotation) -> list[dict]:
    """The effects of the seed the annotation holds alone, or none."""
    seed = Operation.objects.filter(
        annotation=annotation, version=1, name=SEED_OPERATION, kind=Operation.Kind.DO
    ).first()
    return list(seed.effects) if seed is not None and annotation.version == 1 else []


def _is_empty(annotation: Annotation) -> bool:
    if annotation.version == 0:
        return True  # every change is a logged operation that bumps the version
    tables = (Cluster, ClusterMember, HierarchyEdge, RelationLink, MentionEdit)
    return (
        not any(model.objects.filter(annotation=annotation).exists() for model in tables)
        and not Mention.objects.filter(added_in=annotation).exists()
    )


def _matched_mentions(
    annotation: Annotation,
    topic: TopicData,
    documents: list[tuple[int, list[str]]],
    candidates: list[tuple],
    where: str,
) -> list[int]:
    """The server id of each of the file's mentions; every one the topic lacks is an error."""
    errors = []
    if topic.external_id != annotation.topic.external_id:
        errors.append(
            f"{where}: field id: the file is topic {topic.external_id}, the assignment is topic "
            f"{annotation.topic.external_id}"
        )
    if len(topic.documents) != len(documents):
        errors.append(
            f"{where}: field tokens: {len(topic.documents)} document(s) in the file, "
            f"{len(documents)} in topic {annotation.topic.external_id}"
        )
    for d, (document, (_, tokens)) in enumerate(zip(topic.documents, documents, strict=True)):
        if len(document.tokens) != len(tokens):
            errors.append(
                f"{where}: field tokens[{d}]: {len(document.tokens)} tokens in the file, "
                f"{len(tokens)} in the topic"
            )
    if errors:
        raise ImportRefused(f"{where}: the file does not describe this topic", errors)
    position = {id: p for p, (id, _) in enumerate(documents)}
    at = {
        (position[document], tuple(tuple(span) for span in spans)): id
        for id, document, spans in candidates
    }
    ids = []
    for k, mention in enumerate(topic.mentions):
        id = at.get((mention.document, tuple(mention.spans)))
        if id is None:
            spans = ",".join(f"{s}-{e}" for s, e in mention.spans)
            errors.append(
                f"{where}: field mentions[{k}]: document {mention.document}, tokens {spans}"
                f"{_quoted(topic, mention)} is not a mention of topic "
                f"{annotation.topic.external_id}"
            )
        else:
            ids.append(id)
    if errors:
        raise ImportRefused(
            f"{where}: {len(errors)} mention(s) are not in the topic; nothing was imported", errors
        )
    return ids


def _quoted(topic: TopicData, mention) -> str:
    """` ("the text")` of a file's mention, from the file's own tokens (empty when its spans
    fall outside them): a refusal names the mention as the annotator wrote it."""
    tokens = topic.documents[mention.document].tokens
    if any(not 0 <= start <= end < len(tokens) for start, end in mention.spans):
        return ""
    return f' ("{mention_text(tokens, mention.spans)}")'
