"""The stored per-pair agreement counts (`AgreementPair`), read for the report and filled
where missing or stale (docs/agreement-store.md).

A row is a cache of a pure function of two annotations (`corefscore/scoring/stored.py`), valid
while both annotations' versions and the options key match, so reading never shows a stale
number: a pair whose row is missing or does not match is computed here, from the database
as the from-scratch report computes it, and written back (a cache fill, not a use case: the
same answer whoever computes it, first writer wins nothing). `agreement_pairs_fill` is what
runs after the commit of a submit or a reopen (services/agreement_scores.py, through the
core's `work_changed` gate: reporting/apps.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from annotation import gates
from annotation.models import Annotation, Project, Topic
from annotation.selectors.gold import gold_annotations
from annotation.selectors.topic_data import annotations_topic_data, document_token_counts
from corefscore.scoring import api
from corefscore.scoring.stored import (
    StoredRecord,
    options_key,
    pair_record,
    record_json,
)
from reporting.models import AgreementPair

# What the report passes the engine (api.iaa's defaults): part of every row's options key.
KEEP_SINGLETONS = False
COUNTED = "closure"  # both counts are in every record; the project setting only orders them


@dataclass(frozen=True, slots=True)
class Side:
    """One annotation of a pair, as the report knows it."""

    id: int
    version: int
    topic_id: int


def project_schemes(project: Project) -> tuple[str, ...]:
    return tuple(
        scheme for scheme, on in (("scico", project.hierarchy), ("chemu", project.anaphora)) if on
    )


def project_options(project: Project) -> str:
    return options_key(project_schemes(project), keep_singletons=KEEP_SINGLETONS, counted=COUNTED)


def agreement_records(
    project: Project, pairs: Sequence[tuple[Side, Side]]
) -> dict[tuple[int, int], StoredRecord]:
    """(key id, response id) -> record, in its JSON form (as stored: `record_from_json`
    decodes it), for every pair asked for: stored rows where they match, the others computed
    and stored now."""
    options = project_options(project)
    wanted = {(key.id, response.id): (key, response) for key, response in pairs}
    stored: dict[tuple[int, int], StoredRecord] = {}
    rows = AgreementPair.objects.filter(topic__project=project, options=options).values_list(
        "key_id", "key_version", "response_id", "response_version", "counts"
    )
    # (one plain fetch: a server-side cursor's round trips cost more than the rows' memory)
    for key_id, key_version, response_id, response_version, counts in rows:
        sides = wanted.get((key_id, response_id))
        if sides and sides[0].version == key_version and sides[1].version == response_version:
            stored[key_id, response_id] = counts
    missing = [sides for ids, sides in wanted.items() if ids not in stored]
    if missing:
        stored.update(_compute_and_store(project, options, missing))
    return stored


def _compute_and_store(
    project: Project, options: str, pairs: Sequence[tuple[Side, Side]]
) -> dict[tuple[int, int], StoredRecord]:
    sides = {side.id: side for pair in pairs for side in pair}
    stubs = [Annotation(pk=side.id, topic_id=side.topic_id) for side in sides.values()]
    data = annotations_topic_data(stubs, scoring=True)
    counts = document_token_counts({side.topic_id for side in sides.values()})
    plain = {
        id: replace(api.from_topic(data[id]), token_counts=counts.get(side.topic_id, ()))
        for id, side in sides.items()
    }
    schemes = project_schemes(project)
    computed: dict[tuple[int, int], StoredRecord] = {}
    rows = []
    for key, response in pairs:
        record = record_json(
            pair_record(
                schemes,
                plain[key.id],
                plain[response.id],
                keep_singletons=KEEP_SINGLETONS,
                counted=COUNTED,
            )
        )
        computed[key.id, response.id] = record
        rows.append(
            AgreementPair(
                topic_id=key.topic_id,
                key_id=key.id,
                key_version=key.version,
                response_id=response.id,
                response_version=response.version,
                options=options,
                counts=record,
            )
        )
    AgreementPair.objects.bulk_create(
        rows,
        batch_size=500,
        update_conflicts=True,
        unique_fields=["key", "response"],
        update_fields=["topic", "key_version", "response_version", "options", "counts"],
    )
    return computed


def submitted_work(project: Project, topic_ids: Iterable[int] | None = None) -> list[tuple]:
    """(id, version, topic id, topic external id, username) of the submitted annotator
    annotations, in the report's order (topic position, topic id)."""
    rows = Annotation.objects.submitted().annotator_work().of_project(project)
    if topic_ids is not None:
        rows = rows.filter(topic_id__in=list(topic_ids))
    # Practice topics measure annotators against gold, not the project's agreement.
    rows = rows.without_practice(project)
    return list(
        rows.order_by("topic__position", "topic_id").values_list(
            "id", "version", "topic_id", "topic__external_id", "assignment__user__username"
        )
    )


def report_pairs(
    work: Sequence[tuple], gold: Mapping[int, Annotation], *, annotators: bool = True
) -> list[tuple[Side, Side]]:
    """Every pair the report reads: annotators by name (the first of a pair is the key, as
    in `api.iaa`; left out with `annotators=False`), and gold (key) against each annotator."""
    by_topic: dict[int, list[tuple[str, Side]]] = {}
    for id, version, topic_id, _, username in work:
        by_topic.setdefault(topic_id, []).append((username, Side(id, version, topic_id)))
    pairs: list[tuple[Side, Side]] = []
    for topic_id, sides in by_topic.items():
        ordered = [side for _, side in sorted(sides, key=lambda item: item[0])]
        if annotators:
            pairs.extend(
                (first, second)
                for index, first in enumerate(ordered)
                for second in ordered[index + 1 :]
            )
        if topic_id in gold:
            row = gold[topic_id]
            pairs.extend((Side(row.pk, row.version, topic_id), side) for side in ordered)
    return pairs


def agreement_pairs_fill(topic_ids: Iterable[int]) -> None:
    """Compute and store the missing or stale rows of these topics (of any projects), and
    drop the rows of pairs the report no longer reads (reopened work, replaced gold)."""
    topics = Topic.objects.filter(pk__in=list(topic_ids)).select_related("project")
    by_project: dict[int, tuple[Project, list[int]]] = {}
    for topic in topics:
        by_project.setdefault(topic.project_id, (topic.project, []))[1].append(topic.pk)
    for project, ids in by_project.values():
        pairs = report_pairs(submitted_work(project, ids), gold_annotations(project, topic_ids=ids))
        agreement_records(project, pairs)
        keep = {(key.id, response.id) for key, response in pairs}
        gone = [
            pk
            for pk, key, response in AgreementPair.objects.filter(topic_id__in=ids).values_list(
                "pk", "key_id", "response_id"
            )
            if (key, response) not in keep
        ]
        AgreementPair.objects.filter(pk__in=gone).delete()


def practice_topics_submitted(project: Project) -> list[str]:
    """External ids of the practice topics with submitted annotator work, in project order:
    what the report leaves out as practice (and says so)."""
    return list(
        Topic.objects.filter(
            project=project,
            pk__in=gates.practice_topic_ids(project.pk),
            annotations__in=Annotation.objects.submitted().annotator_work(),
        )
        .distinct()
        .order_by("position", "id")
        .values_list("external_id", flat=True)
    )


def unscored_topics(project: Project, submitted_topic_ids: Iterable[int]) -> list[str]:
    """External ids of the topics with fewer than two submitted annotations (including those
    nobody submitted yet), in project order."""
    submitted: dict[int, int] = {}
    for topic_id in submitted_topic_ids:
        submitted[topic_id] = submitted.get(topic_id, 0) + 1
    return [
        external_id
        for id, external_id in Topic.objects.filter(project=project)
        .exclude(pk__in=gates.practice_topic_ids(project.pk))
        .order_by("position", "id")
        .values_list("id", "external_id")
        if submitted.get(id, 0) < 2
    ]
