"""Candidate topics for 100 concept groups (docs/corpus.md, "Candidate topics"): the run's
body as a model worker runs it (the packaged MiniLM encodes the 500 concepts, each concept's
top K comes from the HNSW index, the union per group is stored), then the review's read.

The corpus's vectors are generated, as the issue allows for scale rows: each mention is one
of 1,000 phrases, its vector the phrase's own MiniLM vector plus noise (so similarities fall
as they do between a phrase and its mentions in context), written straight into the index.
What is timed is the run, not the corpus's encoding (bench `corpus` times that)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.environment import django_with_services
from bench.smoke import size

MENTIONS = size(20_000, 400)
PHRASES = size(1_000, 60)
GROUPS = size(100, 4)
CONCEPTS_PER_GROUP = 5
K, FLOOR, MOST, LEAST = 50, 0.6, 100, 2
NOISE = 0.35  # the spread a mention's context adds to its phrase's vector


def phrases(n: int) -> list[str]:
    heads = ["network", "parser", "tagger", "model", "encoder", "kernel", "tree", "search"]
    mods = [
        "neural",
        "graph",
        "sparse",
        "deep",
        "recurrent",
        "convolutional",
        "bayesian",
        "attention",
        "character",
        "lexical",
        "greedy",
        "beam",
        "latent",
        "semantic",
    ]
    out = []
    for i in range(n):
        a, b, c = mods[i % len(mods)], mods[(i // len(mods)) % len(mods)], heads[i % len(heads)]
        out.append(f"{a} {b} {c} {i}" if i >= len(mods) * len(heads) else f"{a} {c}")
    return out


def build(rng) -> tuple:
    from django.db import connection

    from corpus.models import Corpus, CorpusDocument, CorpusEncoding, CorpusMention, MentionVector
    from modelserve.encoders import default_encoder_path
    from modelserve.services.candidate_runs import concept_vectors

    encoder = str(Path(default_encoder_path()).resolve())
    vocabulary = phrases(PHRASES)
    base = concept_vectors(encoder, concepts=vocabulary)
    corpus = Corpus.objects.create(name="bench candidates")
    chosen = rng.integers(0, PHRASES, size=MENTIONS)
    documents = CorpusDocument.objects.bulk_create(
        CorpusDocument(
            corpus=corpus,
            doc_id=f"d{i}",
            tokens=["We", "use", *vocabulary[p].split(), "."],
            sentences=[[0, len(vocabulary[p].split()) + 3]],
            digest=str(i),
        )
        for i, p in enumerate(chosen)
    )
    mentions = CorpusMention.objects.bulk_create(
        (
            CorpusMention(
                corpus=corpus,
                document=d,
                start=2,
                end=1 + len(vocabulary[p].split()),
                label="Method",
                text=vocabulary[p],
            )
            for d, p in zip(documents, chosen, strict=True)
        ),
        batch_size=5000,
    )
    encoding = CorpusEncoding.objects.create(
        corpus=corpus, encoder=encoder, dim=384, status="complete", message="generated"
    )
    vectors = base[chosen] + rng.normal(0, NOISE / np.sqrt(384), size=(MENTIONS, 384))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    started = time.perf_counter()
    MentionVector.objects.bulk_create(
        (
            MentionVector(encoding=encoding, mention=m, dim=384, vector=v)
            for m, v in zip(mentions, vectors.astype(np.float32), strict=True)
        ),
        batch_size=2000,
    )
    indexed = time.perf_counter() - started
    corpus.active_encoding = encoding
    corpus.save(update_fields=["active_encoding"])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE corpus_mentionvector")
    return corpus, vocabulary, indexed


def groups(corpus, vocabulary: list[str], rng) -> None:
    from corpus.models import ConceptGroup

    ConceptGroup.objects.bulk_create(
        ConceptGroup(
            corpus=corpus,
            taxonomy="bench",
            kind="flat",
            name=f"group {g}",
            concepts=[
                vocabulary[i] for i in rng.choice(PHRASES, CONCEPTS_PER_GROUP, replace=False)
            ],
        )
        for g in range(GROUPS)
    )


def run_once(corpus) -> tuple[float, Any]:
    from corpus.services.candidates import candidate_run_create
    from modelserve.services.candidate_runs import candidate_run_execute

    run = candidate_run_create(
        corpus=corpus,
        groups=[],
        k=K,
        floor=FLOOR,
        max_mentions=MOST,
        min_mentions=LEAST,
        send=lambda run_id: None,
    )
    started = time.perf_counter()
    outcome = candidate_run_execute(run_id=run.pk, worker="bench")
    seconds = time.perf_counter() - started
    assert outcome.startswith("succeeded"), outcome
    run.refresh_from_db()
    return seconds, run


def encode_seconds(corpus) -> float:
    """The warm run's encoding step alone: the rest of the run is retrieval and storing."""
    from corpus.models import ConceptGroup
    from modelserve.services.candidate_runs import concept_vectors

    concepts = list(
        dict.fromkeys(c for g in ConceptGroup.objects.filter(corpus=corpus) for c in g.concepts)
    )
    started = time.perf_counter()
    concept_vectors(corpus.active_encoding.encoder, concepts=concepts)
    return time.perf_counter() - started


def main() -> int:
    services = django_with_services()
    try:
        from corpus.selectors_candidates import run_review

        rng = np.random.default_rng(7)
        corpus, vocabulary, indexed = build(rng)
        groups(corpus, vocabulary, rng)
        cold, _ = run_once(corpus)  # the first loads MiniLM
        warm, run = run_once(corpus)
        encoded = encode_seconds(corpus)
        started = time.perf_counter()
        review = run_review(run)
        read = time.perf_counter() - started
        candidates = review["candidates"]
        sizes = [c["mentions"] for c in candidates]
        overlapping = sum(1 for c in candidates if c["overlap"])
        concepts = GROUPS * CONCEPTS_PER_GROUP
        print(
            f"corpus: {MENTIONS:,} mentions (generated vectors, {PHRASES:,} phrases), "
            f"written and indexed in {indexed:.1f} s; {GROUPS} groups of "
            f"{CONCEPTS_PER_GROUP} concepts; K {K}, floor {FLOOR}, {LEAST}-{MOST} mentions"
        )
        print(f"{'step':<52}{'seconds':>10}")
        print(f"{'candidate run, first (MiniLM loaded)':<52}{cold:>10.2f}")
        label = f"candidate run, warm ({concepts} concepts encoded + retrieved)"
        print(f"{label:<52}{warm:>10.2f}")
        print(f"{'  of which encoding the concepts (warm)':<52}{encoded:>10.2f}")
        print(f"{'per group, warm':<52}{warm / GROUPS:>10.3f}")
        print(f"{'review read (all candidates, members, overlap)':<52}{read:>10.2f}")
        print(
            f"candidates: {len(candidates)} of {GROUPS} groups; mentions per candidate "
            f"median {int(np.median(sizes)) if sizes else 0}, max {max(sizes, default=0)}; "
            f"{overlapping} share mentions with another"
        )
        return 0
    finally:
        services.stop()


if __name__ == "__main__":
    sys.exit(main())
