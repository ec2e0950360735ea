"""Reads for the candidate review: a corpus's groups and runs, and a run's candidates with
their scores, the concept that retrieved each mention, its context, and the mentions each
candidate shares with the others of its run."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count

from corpus.models import (
    CandidateMention,
    CandidateRun,
    ConceptGroup,
    Corpus,
    CorpusDocument,
    TopicRetrieval,
)

CONTEXT_WORDS = 25


def concept_groups(corpus: Corpus) -> list[dict]:
    rows = ConceptGroup.objects.filter(corpus=corpus).order_by("taxonomy", "name")
    return [
        {"id": g.pk, "taxonomy": g.taxonomy, "kind": g.kind, "name": g.name, "concepts": g.concepts}
        for g in rows
    ]


def candidate_runs(corpus: Corpus) -> list[dict]:
    runs = (
        CandidateRun.objects.filter(corpus=corpus)
        .annotate(groups_count=Count("groups", distinct=True))
        .order_by("-created_at")
    )
    return [run_summary(run) for run in runs]


def run_summary(run: CandidateRun) -> dict:
    groups = getattr(run, "groups_count", None)
    return {
        "id": run.pk,
        "corpus": run.corpus_id,
        "encoding": run.encoding_id,
        # the folder (admins only): the page names it, as it names the corpus's encodings
        "encoder": run.encoder,
        "k": run.k,
        "floor": run.floor,
        "max_mentions": run.max_mentions,
        "min_mentions": run.min_mentions,
        "groups": run.groups.count() if groups is None else groups,
        "status": run.status,
        "progress": run.progress,
        "message": run.message,
        "result": run.result,
        "created_at": run.created_at,
        "finished_at": run.finished_at,
    }


def run_review(run: CandidateRun) -> dict:
    """The run and every candidate, best-scored mentions first."""
    members = list(
        CandidateMention.objects.filter(candidate__run=run)
        .select_related("mention")
        .order_by("candidate_id", "-similarity", "mention_id")
    )
    owners: dict[int, list[int]] = defaultdict(list)
    for member in members:
        owners[member.mention_id].append(member.candidate_id)
    documents = {
        d.pk: d
        for d in CorpusDocument.objects.filter(
            pk__in={m.mention.document_id for m in members}
        ).only("doc_id", "tokens", "sentences")
    }
    by_candidate: dict[int, list[CandidateMention]] = defaultdict(list)
    for member in members:
        by_candidate[member.candidate_id].append(member)
    candidates = list(run.candidates.select_related("topic__project").order_by("name", "pk"))
    names = {c.pk: c.name for c in candidates}
    out = []
    for candidate in candidates:
        rows = by_candidate.get(candidate.pk, [])
        shared: dict[int, int] = defaultdict(int)
        for member in rows:
            for other in owners[member.mention_id]:
                if other != candidate.pk:
                    shared[other] += 1
        similarities = [m.similarity for m in rows]
        out.append(
            {
                "id": candidate.pk,
                "name": candidate.name,
                "groups": candidate.groups,
                "concepts": candidate.concepts,
                "status": candidate.status,
                "topic": candidate.topic_id,
                "project": candidate.topic.project.name if candidate.topic else None,
                "mentions": len(rows),
                "documents": len({m.mention.document_id for m in rows}),
                "best": max(similarities, default=None),
                "worst": min(similarities, default=None),
                "overlap": [
                    {"candidate": other, "name": names[other], "shared": n}
                    for other, n in sorted(shared.items(), key=lambda item: (-item[1], item[0]))
                ],
                "members": [_member(m, documents[m.mention.document_id], owners) for m in rows],
            }
        )
    return {**run_summary(run), "candidates": out}


def _member(member: CandidateMention, document: CorpusDocument, owners) -> dict:
    mention = member.mention
    before, after = _context(document, mention.start, mention.end)
    return {
        "mention": mention.pk,
        "text": mention.text,
        "label": mention.label,
        "concept": member.concept,
        "similarity": member.similarity,
        "document": document.doc_id,
        "before": before,
        "after": after,
        "shared_with": [c for c in owners[mention.pk] if c != member.candidate_id],
    }


def _context(document: CorpusDocument, start: int, end: int) -> tuple[str, str]:
    """The words of the mention's sentence around it (at most CONTEXT_WORDS each side)."""
    lo, hi = 0, len(document.tokens)
    for s, e in document.sentences:
        if s <= start < e:
            lo, hi = s, e
            break
    tokens = document.tokens
    return (
        " ".join(tokens[max(lo, start - CONTEXT_WORDS) : start]),
        " ".join(tokens[end + 1 : min(hi, end + 1 + CONTEXT_WORDS)]),
    )


def project_retrievals(project) -> dict | None:
    """How a project's topics made from candidates were retrieved, per retrieval setting (the
    dataset release's datasheet); None when no topic of the project was."""
    rows = list(
        TopicRetrieval.objects.filter(topic__project=project).order_by("topic__position", "pk")
    )
    if not rows:
        return None
    settings: dict[tuple, dict] = {}
    for row in rows:
        key = (row.corpus_name, row.encoder, row.k, row.floor, row.max_mentions, row.run_id)
        entry = settings.setdefault(
            key,
            {
                "corpus": row.corpus_name,
                "encoder": row.encoder,
                "k": row.k,
                "floor": row.floor,
                "max_mentions": row.max_mentions,
                "topics": 0,
                "groups": [],
                "concepts": 0,
                "mentions": 0,
                "similarities": [],
            },
        )
        entry["topics"] += 1
        entry["groups"] += [g for g in row.groups if g not in entry["groups"]]
        entry["concepts"] += len(row.concepts)
        entry["mentions"] += len(row.scores)
        entry["similarities"] += [s["similarity"] for s in row.scores]
    runs = []
    for entry in settings.values():
        similarities = entry.pop("similarities")
        entry["similarity"] = {
            "min": min(similarities, default=None),
            "mean": sum(similarities) / len(similarities) if similarities else None,
            "max": max(similarities, default=None),
        }
        runs.append(entry)
    return {"topics": len(rows), "runs": runs}
