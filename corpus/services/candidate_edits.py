"""An admin's review of candidate topics: drop mentions, merge two candidates, split one by
concept, rename one (its name is the topic's), reject one or open it again. Each edit is one
transaction on open candidates (a candidate made into a topic is read-only, and a rejected
one until it is opened again); a refusal names the candidates and concepts and changes
nothing."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from annotation.errors import Conflict, ImportRefused
from corpus.models import Candidate, CandidateMention, CandidateStatus


def _open(candidate_id: int) -> Candidate:
    return _still_open(Candidate.objects.select_for_update().get(pk=candidate_id))


def _still_open(candidate: Candidate) -> Candidate:
    if candidate.status == CandidateStatus.REJECTED:
        raise Conflict(f"Candidate '{candidate.name}' was rejected: open it again to change it.")
    if candidate.status != CandidateStatus.OPEN:
        raise Conflict(
            f"Candidate '{candidate.name}' is already a topic: it can no longer be changed."
        )
    return candidate


def candidate_update(
    *, candidate: Candidate, name: str | None = None, rejected: bool | None = None
) -> Candidate:
    """Rename the candidate (the topic made from it takes the name), reject it (it stays in
    the review, marked, and cannot be made a topic) or open a rejected one again."""
    with transaction.atomic():
        candidate = Candidate.objects.select_for_update().get(pk=candidate.pk)
        if rejected is False and candidate.status == CandidateStatus.REJECTED:
            candidate.status = CandidateStatus.OPEN
        _still_open(candidate)
        if name is not None and name != candidate.name:
            taken = Candidate.objects.filter(run_id=candidate.run_id, name=name)
            if taken.exclude(pk=candidate.pk).exists():
                raise Conflict(
                    f"Another candidate of this run is named '{name}': topics are named after "
                    "their candidates, so choose another name."
                )
            candidate.name = name
        if rejected:
            candidate.status = CandidateStatus.REJECTED
        candidate.save(update_fields=["name", "status"])
    return candidate


def candidate_mentions_drop(*, candidate: Candidate, mentions: Iterable[int]) -> Candidate:
    """Leave the given corpus mentions out of the candidate."""
    wanted = set(mentions)
    with transaction.atomic():
        candidate = _open(candidate.pk)
        rows = CandidateMention.objects.filter(candidate=candidate, mention_id__in=wanted)
        found = set(rows.values_list("mention_id", flat=True))
        if not wanted or found != wanted:
            raise ImportRefused(
                f"{len(wanted - found) or 'No'} of the mentions to drop "
                f"{'are' if len(wanted - found) != 1 else 'is'} not in candidate "
                f"'{candidate.name}'; nothing was dropped.",
                [str(m) for m in sorted(wanted - found)],
            )
        rows.delete()
    return candidate


def candidates_merge(*, candidate: Candidate, other: Candidate) -> Candidate:
    """`other`'s groups, concepts and mentions go into `candidate` (a mention in both keeps
    its higher similarity and that concept); `other` is removed."""
    if candidate.pk == other.pk:
        raise ImportRefused(f"Candidate '{candidate.name}' cannot be merged with itself.", [])
    with transaction.atomic():
        first, second = sorted([candidate.pk, other.pk])  # lock in one order: no deadlock
        locked = {first: _open(first), second: _open(second)}
        target, source = locked[candidate.pk], locked[other.pk]
        if target.run_id != source.run_id:
            raise ImportRefused(
                f"Candidates '{target.name}' and '{source.name}' come from different runs "
                "(other vectors or limits): merge candidates of one run.",
                [],
            )
        held = {m.mention_id: m for m in target.members.all()}
        for member in source.members.all():
            mine = held.get(member.mention_id)
            if mine is None:
                member.candidate = target
                member.save(update_fields=["candidate"])
            elif member.similarity > mine.similarity:
                mine.concept, mine.similarity = member.concept, member.similarity
                mine.save(update_fields=["concept", "similarity"])
        target.groups = _joined(target.groups, source.groups)
        target.concepts = _joined(target.concepts, source.concepts)
        target.save(update_fields=["groups", "concepts"])
        source.delete()
    return target


def candidate_split(*, candidate: Candidate, concepts: Iterable[str]) -> Candidate:
    """A new candidate with the mentions the given concepts retrieved; the rest stay."""
    chosen = list(dict.fromkeys(concepts))
    with transaction.atomic():
        candidate = _open(candidate.pk)
        unknown = [c for c in chosen if c not in candidate.concepts]
        if not chosen or unknown:
            raise ImportRefused(
                f"Split candidate '{candidate.name}' by its own concepts ("
                + ", ".join(f"'{c}'" for c in candidate.concepts)
                + ")"
                + (f"; {', '.join(repr(c) for c in unknown)} is not one." if unknown else "."),
                unknown,
            )
        moving = candidate.members.filter(concept__in=chosen)
        moved, total = moving.count(), candidate.members.count()
        if not moved:
            raise ImportRefused(
                f"No mention of '{candidate.name}' was retrieved by "
                + ", ".join(f"'{c}'" for c in chosen)
                + ": there is nothing to split off.",
                [],
            )
        if moved == total:
            raise ImportRefused(
                f"Every mention of '{candidate.name}' was retrieved by "
                + ", ".join(f"'{c}'" for c in chosen)
                + ": splitting would leave it empty.",
                [],
            )
        part = Candidate.objects.create(
            run_id=candidate.run_id,
            name=f"{candidate.name} / {chosen[0]}"[:300],
            groups=list(candidate.groups),
            concepts=chosen,
        )
        moving.update(candidate=part)
        candidate.concepts = [c for c in candidate.concepts if c not in chosen]
        candidate.save(update_fields=["concepts"])
    return part


def _joined(first: list[str], second: list[str]) -> list[str]:
    return list(dict.fromkeys([*first, *second]))
