"""A candidate-topic run started through the API and run by a real model worker: the task
goes to the model queue after the run commits, the worker encodes the concepts with the
corpus's encoder and stores the candidates with the run's end."""

from __future__ import annotations

import pytest

from corpus.models import CandidateRun, ConceptGroup
from tests.corpus.build import encoded_corpus
from tests.workers import start_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_model_worker_makes_the_candidates(services, tmp_path, admin_client):
    corpus = encoded_corpus(tmp_path, "cs", 20)
    url = f"/api/corpora/{corpus.pk}/candidate-runs/"
    refused = admin_client.post(url, {"groups": [], "k": 5}, format="json")
    assert refused.status_code == 400
    assert "has no concept group to retrieve for" in refused.json()["message"]
    ConceptGroup.objects.create(
        corpus=corpus, taxonomy="t", kind="hierarchy", name="models", concepts=["models", "BERT"]
    )
    worker = start_worker(services, name="candidates-test")
    try:
        answer = admin_client.post(url, {"groups": [], "k": 5, "floor": 0.3}, format="json")
        assert answer.status_code == 202, answer.json()
        run = wait_for(CandidateRun.objects.get(pk=answer.json()["id"]), {"succeeded", "failed"})
    finally:
        worker.stop()
    assert run.status == "succeeded", run.message
    assert run.worker.startswith(worker.name)
    (candidate,) = run.candidates.all()
    assert candidate.name == "models"
    assert 2 <= candidate.members.count() <= 10  # two concepts, K 5 each
    assert "BERT" in set(candidate.members.values_list("mention__text", flat=True))
    assert [r["status"] for r in admin_client.get(url).json()] == ["succeeded"]
