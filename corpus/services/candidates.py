"""Candidate topics retrieved for concept groups (docs/corpus.md, "Candidate topics").

A run is a job of the model workers, which hold the encoder: `candidate_run_create` checks
the request and queues the run (the caller, modelserve, sends its task after commit);
the worker encodes every concept with the encoding's own encoder and hands the vectors to
`candidates_build`, which retrieves each concept's top K mentions from the index, keeps
those at or above the floor, and makes the union per group a candidate (its best
`max_mentions`, or no candidate below `min_mentions`). The candidates and the run's end are
stored in one transaction that first checks the worker still owns the run, so a take-over
after a killed worker stores them once."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from django.db import transaction

from annotation.errors import Conflict, ImportRefused
from corpus.models import (
    Candidate,
    CandidateMention,
    CandidateRun,
    ConceptGroup,
    Corpus,
    CorpusEncoding,
)
from corpus.selectors import hnsw_scan, nearest_vectors
from foundation.jobs import lifecycle
from foundation.jobs.models import JobStatus
from foundation.side_effects import after_commit

MAX_K = 1000
MAX_GROUPS_PER_RUN = 5000


@dataclass(frozen=True)
class Hit:
    mention_id: int
    concept: str
    similarity: float


def candidate_run_create(
    *,
    corpus: Corpus,
    groups: Sequence[int],
    k: int = 50,
    floor: float = 0.5,
    max_mentions: int = 100,
    min_mentions: int = 2,
    user=None,
    send: Callable[[int], None],
) -> CandidateRun:
    """A queued run over the groups `groups` (ids; none: all the corpus's groups) of
    `corpus`; `send(run_id)` after it commits."""
    wanted = set(groups)
    of_corpus = ConceptGroup.objects.filter(corpus=corpus)
    chosen = list(of_corpus.filter(pk__in=wanted) if wanted else of_corpus)
    if not chosen:
        raise ImportRefused(
            f"Corpus '{corpus.name}' has no concept group to retrieve for: import a taxonomy.",
            [],
        )
    if len(chosen) != len(wanted) and wanted:
        raise ImportRefused(
            f"{len(wanted) - len(chosen)} of the chosen groups are not in corpus "
            f"'{corpus.name}'; nothing was started.",
            [str(g) for g in sorted(wanted - {g.pk for g in chosen})],
        )
    if len(chosen) > MAX_GROUPS_PER_RUN:
        raise ImportRefused(
            f"{len(chosen):,} groups in one run; at most {MAX_GROUPS_PER_RUN:,}", []
        )
    problems = []
    if not 1 <= k <= MAX_K:
        problems.append(f"K is {k}: retrieve between 1 and {MAX_K} mentions per concept")
    if not -1.0 <= floor <= 1.0:
        problems.append(f"The similarity floor is {floor}: a cosine similarity is in [-1, 1]")
    if max_mentions < 1 or min_mentions < 1 or min_mentions > max_mentions:
        problems.append(
            f"A topic of {min_mentions} to {max_mentions} mentions: the least must be at least "
            "1 and at most the most"
        )
    if problems:
        raise ImportRefused(" ".join(problems), problems)
    with transaction.atomic():
        corpus = Corpus.objects.select_for_update().get(pk=corpus.pk)
        encoding = corpus.active_encoding
        if encoding is None:
            raise Conflict(
                f"Corpus '{corpus.name}' has no complete encoding yet: encode its mentions "
                "before retrieving candidates."
            )
        run = CandidateRun.objects.create(
            corpus=corpus,
            encoding=encoding,
            encoder=encoding.encoder,
            user=user,
            k=k,
            floor=floor,
            max_mentions=max_mentions,
            min_mentions=min_mentions,
            message="waiting for a model worker",
        )
        run.groups.set(chosen)
        after_commit(send, run.pk)
    return run


def run_concepts(run: CandidateRun) -> list[str]:
    """Every distinct concept of the run's groups, in group order: each is encoded once."""
    seen: dict[str, None] = {}
    for group in run.groups.order_by("pk"):
        for concept in group.concepts:
            seen.setdefault(concept, None)
    return list(seen)


def candidates_build(
    run: CandidateRun,
    vectors: dict[str, Sequence[float]],
    progress: Callable[[float, str], None] = lambda fraction, message: None,
) -> str:
    """Retrieve, unite per group and store the run's candidates with its end (the worker's
    body after encoding): only while this claim owns the run."""
    assert run.encoding is not None  # set at creation; a removed encoding fails the run
    hits: dict[str, list[Hit]] = {}
    for done, (concept, vector) in enumerate(vectors.items()):
        hits[concept] = nearest_hits(
            run.encoding, vector, concept=concept, k=run.k, floor=run.floor
        )
        progress(0.5 + 0.4 * (done + 1) / max(1, len(vectors)), f"retrieved {done + 1:,} concepts")
    groups = list(run.groups.order_by("pk"))
    made, small = 0, []
    with transaction.atomic():
        if not lifecycle.still_owned(run):
            return "skipped: another worker took the run over"
        for group in groups:
            members = group_union([hits.get(c, []) for c in group.concepts], limit=run.max_mentions)
            if len(members) < run.min_mentions:
                small.append(group.name)
                continue
            candidate = Candidate.objects.create(
                run=run, name=group.name, groups=[group.name], concepts=list(group.concepts)
            )
            CandidateMention.objects.bulk_create(
                CandidateMention(
                    candidate=candidate,
                    mention_id=hit.mention_id,
                    concept=hit.concept[:300],
                    similarity=hit.similarity,
                )
                for hit in members
            )
            made += 1
        message = f"{made:,} candidate topics from {len(groups):,} groups" + (
            f"; {len(small):,} below {run.min_mentions} mentions" if small else ""
        )
        result = {"candidates": made, "groups": len(groups), "too_small": small[:200]}
        if not lifecycle.finish(run, JobStatus.SUCCEEDED, message, result=result):
            transaction.set_rollback(True)
            return "skipped: another worker took the run over"
    return f"succeeded: {message}"


def nearest_hits(
    encoding: CorpusEncoding, vector: Sequence[float], *, concept: str, k: int, floor: float
) -> list[Hit]:
    """The k mentions nearest `vector` at or above `floor`: `nearest_mentions`'s query and
    index settings, reading only the mention ids and distances (a candidate run makes
    hundreds of queries; the mentions' documents are not needed until the review)."""
    with hnsw_scan(k=k):
        rows = list(nearest_vectors(encoding, vector).values_list("mention_id", "distance")[:k])
    return [
        Hit(mention_id, concept, 1.0 - float(distance))
        for mention_id, distance in rows
        if 1.0 - float(distance) >= floor
    ]


def group_union(per_concept: Iterable[list[Hit]], *, limit: int) -> list[Hit]:
    """One hit per mention, by the concept most similar to it (the first concept of the
    group on a tie), the `limit` most similar, best first."""
    best: dict[int, Hit] = {}
    for hits in per_concept:
        for hit in hits:
            held = best.get(hit.mention_id)
            if held is None or hit.similarity > held.similarity:
                best[hit.mention_id] = hit
    ranked = sorted(best.values(), key=lambda hit: (-hit.similarity, hit.mention_id))
    return ranked[:limit]
