"""Candidate topics retrieved on the real database (pgvector's HNSW index) from a corpus the
packaged MiniLM encoded: the run's body run here as a model worker runs it. Each candidate is
the union of its group's concepts' top K mentions at or above the floor, its best
`max_mentions`, the concept most similar to each mention recorded: checked against exact
search over every vector of the corpus, with the concepts encoded by the same encoder."""

from __future__ import annotations

import numpy as np
import pytest

from corpus.models import CandidateRun, ConceptGroup, MentionVector
from corpus.services.candidates import candidate_run_create
from modelserve.services.candidate_runs import candidate_run_execute, concept_vectors
from tests.corpus.build import encoded_corpus

pytestmark = pytest.mark.django_db(transaction=True)

GROUPS = {
    "neural networks": ["neural networks", "BERT", "an LSTM"],
    "trees": ["random forests", "decision trees"],
    "language tasks": ["machine translation", "parsing", "question answering"],
    "vision": ["image segmentation"],
}


def exact(corpus, run: CandidateRun, concepts: list[str]) -> dict[str, dict[int, float]]:
    """Per group: mention id -> best similarity, by exact search and the run's limits."""
    rows = list(MentionVector.objects.filter(encoding=corpus.active_encoding))
    ids = np.array([r.mention_id for r in rows])
    matrix = np.array([r.vector for r in rows])
    vectors = dict(
        zip(
            concepts,
            concept_vectors(corpus.active_encoding.encoder, concepts=concepts),
            strict=True,
        )
    )
    out = {}
    for name, members in GROUPS.items():
        best: dict[int, float] = {}
        for concept in members:
            similarity = matrix @ vectors[concept]
            for i in np.argsort(-similarity)[: run.k]:
                if similarity[i] >= run.floor:
                    best[int(ids[i])] = max(best.get(int(ids[i]), -1.0), float(similarity[i]))
        ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))[: run.max_mentions]
        out[name] = dict(ranked)
    return out


def test_candidates_are_the_union_of_each_groups_nearest_mentions(tmp_path):
    corpus = encoded_corpus(tmp_path, "cs", 40)  # 80 mentions, 5 methods x 4 tasks
    for name, concepts in GROUPS.items():
        ConceptGroup.objects.create(
            corpus=corpus, taxonomy="curated", kind="flat", name=name, concepts=concepts
        )
    run = candidate_run_create(
        corpus=corpus,
        groups=[],
        k=12,
        floor=0.45,
        max_mentions=15,
        min_mentions=3,
        send=lambda run_id: None,
    )
    outcome = candidate_run_execute(run_id=run.pk, worker="worker-a")
    assert outcome.startswith("succeeded"), outcome
    run.refresh_from_db()

    expected = exact(corpus, run, [c for cs in GROUPS.values() for c in cs])
    made = {c.name: c for c in run.candidates.all()}
    too_small = sorted(name for name, members in expected.items() if len(members) < 3)
    assert sorted(run.result["too_small"]) == too_small
    assert sorted(made) == sorted(set(GROUPS) - set(too_small))
    assert len(made) >= 2, expected  # the check means something only with candidates made
    for name, candidate in made.items():
        members = {m.mention_id: m for m in candidate.members.select_related("mention")}
        assert set(members) == set(expected[name]), name
        for mention_id, member in members.items():
            assert member.similarity == pytest.approx(expected[name][mention_id], abs=1e-4)
            assert member.concept in GROUPS[name]
        assert len(members) <= run.max_mentions
    # an exact phrase of the corpus is retrieved by its own concept, first
    networks = made["neural networks"].members.select_related("mention")
    assert networks.order_by("-similarity").first().mention.text in {"BERT", "an LSTM"}
    assert run.encoding == corpus.active_encoding
    assert run.message.startswith(f"{len(made)} candidate topics from 4 groups")
