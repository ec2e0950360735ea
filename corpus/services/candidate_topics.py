"""Candidates made into topics of a project: each candidate's mentions, in their corpus
documents, become a topic through the core's topic writer (the import's own, so the topics
are what an import makes: documents, candidate mentions, no gold), and each topic keeps a
`TopicRetrieval` of what made it. Only then do the documents cost workspace state; the
topics are assigned as every other."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from django.db import transaction

from annotation.errors import Conflict, ImportRefused
from annotation.models import Project, Topic
from annotation.services.imports.sources import topics_check
from annotation.services.imports.topics import ImportResult, topics_write
from corefscore.corpus import DocumentData, MentionData, TopicData
from corpus.models import (
    Candidate,
    CandidateMention,
    CandidateRun,
    CandidateStatus,
    TopicRetrieval,
)

FORMAT = "corpus"


def candidates_to_topics(
    *, run: CandidateRun, candidates: Sequence[int], project: Project, user=None
) -> list[Topic]:
    """One topic per chosen candidate of `run`, named after it, in `project`; all or
    nothing."""
    wanted = set(candidates)
    if not wanted:
        raise ImportRefused("Choose the candidates to make into topics.", [])
    if project.validation:
        raise ImportRefused(
            f"Project '{project.name}' validates given clusters; candidate topics have none: "
            "choose a project that annotates.",
            [],
        )
    topics_check(len(wanted), name="the chosen candidates")
    with transaction.atomic():
        locked = list(
            Candidate.objects.select_for_update(of=("self",))
            .filter(run=run, pk__in=wanted)
            .select_related("run__corpus", "run__encoding")
            .order_by("pk")
        )
        if len(locked) != len(wanted):
            raise ImportRefused(
                f"{len(wanted) - len(locked)} of the chosen candidates are not in this run "
                "(merged away, or another run's); reload and choose again.",
                [],
            )
        _check(locked, project)
        datas = [_topic_data(candidate) for candidate in locked]
        file = f"corpus {locked[0].run.corpus.name}"
        topics_write(
            project=project,
            topics=[data for data, _ in datas],
            format=FORMAT,
            file=file,
            user=user,
            result=ImportResult(project=project, file=file),
            annotated=False,
        )
        rows = {
            t.external_id: t
            for t in Topic.objects.filter(project=project, external_id__in=[c.name for c in locked])
        }
        TopicRetrieval.objects.bulk_create(
            _retrieval(candidate, rows[candidate.name], project, scores)
            for candidate, (_, scores) in zip(locked, datas, strict=True)
        )
        for candidate in locked:
            candidate.status = CandidateStatus.CREATED
            candidate.topic = rows[candidate.name]
        Candidate.objects.bulk_update(locked, ["status", "topic"])
    return [rows[c.name] for c in locked]


def _check(candidates: list[Candidate], project: Project) -> None:
    problems = []
    for candidate in candidates:
        if candidate.status == CandidateStatus.REJECTED:
            problems.append(f"candidate '{candidate.name}' was rejected")
        elif candidate.status != CandidateStatus.OPEN:
            problems.append(f"candidate '{candidate.name}' is already a topic")
        elif not candidate.members.exists():
            problems.append(f"candidate '{candidate.name}' has no mention left")
    names = [c.name for c in candidates]
    problems += [f"two chosen candidates are named '{n}'" for n in sorted(_twice(names))]
    held = Topic.objects.filter(project=project, external_id__in=names)
    problems += [
        f"topic '{name}' is already in project '{project.name}'"
        for name in held.values_list("external_id", flat=True)
    ]
    if problems:
        raise Conflict(
            f"{len(problems)} problem(s); no topic was created: " + "; ".join(problems[:10])
        )


def _twice(names: list[str]) -> set[str]:
    seen: set[str] = set()
    return {n for n in names if n in seen or seen.add(n)}  # type: ignore[func-returns-value]


def _topic_data(candidate: Candidate) -> tuple[TopicData, list[dict]]:
    """The candidate's topic (its documents by id, its mentions in reading order) and the
    score of each of its mentions, in the same order."""
    members = list(
        CandidateMention.objects.filter(candidate=candidate).select_related("mention__document")
    )
    documents = sorted({m.mention.document for m in members}, key=lambda d: d.doc_id)
    index = {document.pk: i for i, document in enumerate(documents)}
    members.sort(key=lambda m: (index[m.mention.document_id], m.mention.start, m.mention.end))
    topic = TopicData(
        external_id=candidate.name,
        source=f"corpus:{candidate.run.corpus.name}",
        documents=[
            DocumentData(d.doc_id, list(d.tokens), [tuple(s) for s in d.sentences], d.metadata)
            for d in documents
        ],
        mentions=[
            MentionData(
                index[m.mention.document_id],
                tuple((s, e) for s, e in (m.mention.spans or [[m.mention.start, m.mention.end]])),
            )
            for m in members
        ],
    )
    scores = [
        {
            "document": m.mention.document.doc_id,
            "start": m.mention.start,
            "end": m.mention.end,
            "text": m.mention.text,
            "concept": m.concept,
            "similarity": round(m.similarity, 4),
        }
        for m in members
    ]
    return topic, scores


def _retrieval(candidate: Candidate, topic: Topic, project: Project, scores) -> TopicRetrieval:
    run = candidate.run
    return TopicRetrieval(
        topic=topic,
        project=project,
        corpus_name=run.corpus.name,
        run=run,
        encoding=run.encoding,
        encoder=Path(run.encoder).name,
        groups=list(candidate.groups),
        concepts=list(candidate.concepts),
        k=run.k,
        floor=run.floor,
        max_mentions=run.max_mentions,
        scores=scores,
    )
