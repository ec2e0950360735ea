"""Adjudication: an adjudicator's assignment of a topic, seeded from the annotators' work.

The seed is written as one logged `adjudication_seed` operation (like an import): replaying
the log still reproduces the state, and one undo takes the whole seed back, leaving the empty
annotation, which is a consistent state (the same as an `empty` seed) with nothing before it
to undo. An `empty` seed logs nothing. Why one operation and not one per cluster: an undo in
the middle of a seed would leave a half-built consensus that nobody chose.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from adjudication.domain.consensus import Consensus, Rules, consensus
from adjudication.domain.consensus_state import seed_effects
from adjudication.selectors.candidates import submitted_annotator_work
from adjudication.selectors.consensus_versions import consensus_versions
from annotation.domain.effects import apply_effects
from annotation.errors import AssignmentRefused
from annotation.infra.bulk_sql import ids_reserve
from annotation.infra.effects_sql import effects_write
from annotation.models import Annotation, Assignment, Cluster, Mention, Operation, Topic
from annotation.selectors.state import DocumentTokens, annotation_initial_state
from annotation.services.assignments import assignment_create
from foundation import broadcast
from foundation.side_effects import after_commit

SEED_CONSENSUS = "consensus"
SEED_EMPTY = "empty"
SEED_OPERATION = "adjudication_seed"


@transaction.atomic
def create_adjudication(
    *, topic: Topic, user, seed: str = SEED_CONSENSUS, threshold: float = 0.5
) -> Assignment:
    """Assign `topic` to `user` as its adjudicator, starting from `seed`: "consensus" (of the
    submitted annotations, at least two), "empty", or an annotator's username (their submitted
    annotation, copied). Refused (AssignmentRefused, nothing written) when the user already
    has this topic, or the seed cannot be made."""
    topic = Topic.objects.select_related("project").get(pk=topic.pk)
    existing = Assignment.objects.filter(topic=topic, user=user).first()
    if existing is not None:
        role = "adjudicates" if existing.role == Assignment.Role.ADJUDICATOR else "annotates"
        raise AssignmentRefused(
            f"{user.get_username()} already {role} topic {topic.external_id}; "
            "an adjudicator must be someone with no other assignment of the topic."
        )
    sources = _seed_sources(topic, seed)
    result = None
    if sources:
        if not 0 <= threshold < 1:
            raise AssignmentRefused(
                f"The threshold must be at least 0 and below 1, not {threshold}."
            )
        result = consensus(
            consensus_versions(topic.pk, sources),
            rules=_rules(topic),
            threshold=threshold,
        )
    assignment = assignment_create(topic=topic, user=user, role=Assignment.Role.ADJUDICATOR)
    if result is not None:
        _write_seed(assignment, result, seed=seed, threshold=threshold, sources=sources)
    return assignment


def _seed_sources(topic: Topic, seed: str) -> list[Annotation]:
    submitted = submitted_annotator_work(topic)
    if seed == SEED_EMPTY:
        return []
    if seed == SEED_CONSENSUS:
        if len(submitted) < 2:
            raise AssignmentRefused(
                f"A consensus needs at least two submitted annotations; topic "
                f"{topic.external_id} has {len(submitted)}."
            )
        return submitted
    chosen = [a for a in submitted if a.assignment_of_work.user.get_username() == seed]
    if not chosen:
        exists = get_user_model().objects.filter(username=seed).exists()
        why = "has not submitted it" if exists else "is not a user"
        raise AssignmentRefused(
            f"Cannot seed topic {topic.external_id} from {seed}: {seed} {why}. "
            f'The seed is "consensus", "empty" or the username of an annotator who submitted.'
        )
    return chosen


def _rules(topic: Topic) -> Rules:
    project = topic.project
    return Rules(
        single_parent=project.single_parent,
        refuse_duplicate_link_pairs=project.refuse_duplicate_link_pairs,
    )


def _write_seed(
    assignment: Assignment,
    result: Consensus,
    *,
    seed: str,
    threshold: float,
    sources: list[Annotation],
) -> None:
    annotation = (
        Annotation.objects.select_for_update()
        .select_related("topic__project")
        .get(assignment=assignment)
    )
    state = annotation_initial_state(annotation)
    state.mention_text = DocumentTokens()
    candidates = {(m.document, m.spans) for m in state.mentions.values()}
    added = sum(1 for key in result.mentions if key not in candidates)
    needed = {
        "cluster": iter(ids_reserve(Cluster, len(result.clusters))),
        "mention": iter(ids_reserve(Mention, added)),
    }
    effects = seed_effects(state, result, lambda kind: next(needed[kind]))
    if not effects:
        return
    apply_effects(state, effects)  # checks the effects against the state before any write
    effects_write(annotation_id=annotation.pk, topic_id=annotation.topic_id, effects=effects)
    annotation.version += 1
    Annotation.objects.filter(pk=annotation.pk).update(version=annotation.version)
    payload = {
        "op": SEED_OPERATION,
        "seed": seed,
        "threshold": threshold,
        "sources": [
            {"annotation": a.pk, "annotator": a.assignment_of_work.user.get_username()}
            for a in sources
        ],
    }
    operation = Operation.objects.create(
        annotation=annotation,
        version=annotation.version,
        kind=Operation.Kind.DO,
        name=SEED_OPERATION,
        user=None,
        payload=payload,
        effects=effects,
    )
    message = {
        "operation_id": operation.pk,
        "version": annotation.version,
        "name": SEED_OPERATION,
        "kind": "do",
        "effects": effects,
        "warnings": [],
        "created": {},
        "client_id": "",
    }
    after_commit(broadcast.annotation_applied, annotation.pk, message)
