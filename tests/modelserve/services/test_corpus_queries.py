"""Query by example from the workspace, on PostgreSQL with pgvector: the current mention's
neighbours across the corpus (its own corpus vector when the topic came from the corpus),
each in its sentence and with its cluster and parents where a gold topic holds it; only the
corpora of the caller's own projects; a query no worker encodes refused in words.

The corpus is encoded here as a model worker does it (the chunk task's body)."""

from __future__ import annotations

from itertools import pairwise
from types import SimpleNamespace

import numpy as np
import pytest
from rest_framework.test import APIClient

from annotation.models import Project
from corpus.models import Corpus, CorpusDocument, CorpusMention
from corpus.selectors import mention_vector
from modelserve.services import corpus_encoding as encoding_service
from modelserve.services import query_encoding
from tests.corpus.build import imported_corpus, query_topics
from tests.factories import UserFactory, assign, make_topic, signed_in

# the chunk task closes old connections, as a worker does: outside a test transaction
pytestmark = pytest.mark.django_db(transaction=True)

DOCUMENTS = 40  # "We use <method> for <task> in study i ." : 80 mentions


@pytest.fixture
def world(tmp_path):
    corpus = imported_corpus(tmp_path, "cs-abstracts", DOCUMENTS)
    encoding = encoding_service.corpus_encoding_start(corpus=corpus, chunk_size=40)
    for chunk in encoding.chunks.order_by("index"):
        assert encoding_service.encode_chunk_execute(chunk_id=chunk.pk).startswith("succeeded")
    corpus.refresh_from_db()
    _, work = query_topics(corpus, DOCUMENTS)
    annotator = UserFactory()
    _, annotation = assign(work, annotator)
    return SimpleNamespace(corpus=corpus, work=work, annotator=annotator, annotation=annotation)


def query(client, annotation_id, **params):
    return client.get(f"/api/annotations/{annotation_id}/corpus-query/", params)


def mention_reading(topic, words: str, doc_id: str):
    for mention in topic.mentions.select_related("document"):
        (start, end), *_ = mention.spans
        if (
            mention.document.doc_id == doc_id
            and " ".join(mention.document.tokens[start : end + 1]) == words
        ):
            return mention
    raise AssertionError(f"no mention {words!r} in {doc_id}")


def test_a_mention_from_the_corpus_finds_its_kin_in_context_with_their_gold_clusters(world):
    corpus, work = world.corpus, world.work
    annotator, annotation = world.annotator, world.annotation
    bert = mention_reading(work, "BERT", "doc-20")  # doc-20: "We use BERT for parsing ..."

    response = query(signed_in(annotator), annotation.pk, mention=bert.pk, k=8)

    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["corpus"] == {"id": corpus.pk, "name": "cs-abstracts"}
    # the stored vector of the corpus mention that is this one: no model asked
    assert answer["query"] == {"text": "BERT", "vector_from": "corpus"}
    hits = answer["neighbours"]
    assert len(hits) == 8
    assert "doc-20" not in [h["document"] for h in hits]  # not itself
    assert [h["text"] for h in hits[:4]] == ["BERT"] * 4
    assert all(a["similarity"] >= b["similarity"] for a, b in pairwise(hits))
    first = hits[0]
    sentence = CorpusDocument.objects.get(corpus=corpus, doc_id=first["document"]).tokens
    assert first["words"] == sentence  # one-sentence documents: the whole sentence
    ((start, end),) = first["marked"]
    assert first["words"][start : end + 1] == ["BERT"]
    # a BERT in the gold topic: its cluster and parent; one in the annotator's own topic
    # (documents 20-39) carries nothing (another annotator's work on it is not shown)
    in_gold = [h for h in hits if int(h["document"].split("-")[1]) < 20]
    in_work = [h for h in hits if int(h["document"].split("-")[1]) >= 20]
    assert in_gold
    assert in_work
    for hit in in_gold:
        assert hit["treatments"] == [
            {
                "project": "SciCo methods",
                "topic": "gold-topic",
                "annotation": "gold",
                "cluster": "BERT",
                "size": 4,
                "parents": ["neural models"],
            }
        ], hit
    assert all(h["treatments"] == [] for h in in_work)


def test_the_query_vector_a_worker_makes_is_the_corpus_encoders(world):
    """What a model worker answers for a mention the corpus lacks is made as the corpus's own
    vectors are: the same mention in the same sentence gives the stored vector."""
    corpus = world.corpus
    mention = CorpusMention.objects.filter(corpus=corpus, text="random forests")[0]
    document = mention.document
    vector = query_encoding.encode_query_execute(
        encoder=corpus.active_encoding.encoder,
        context=corpus.active_encoding.context,
        words=document.tokens,
        spans=[[mention.start, mention.end]],
    )
    assert np.allclose(vector, mention_vector(mention), atol=1e-5)


def test_a_query_no_worker_encodes_is_refused_in_words(world, monkeypatch):
    work, annotator, annotation = world.work, world.annotator, world.annotation
    monkeypatch.setattr(query_encoding, "QUERY_WAIT_SECONDS", 0.5)  # no model worker runs
    outside = mention_reading(work, "transformers", "extra-20")

    for params in ({"mention": outside.pk}, {"text": "graph neural networks"}):
        response = query(signed_in(annotator), annotation.pk, **params)
        assert response.status_code == 503, response.content
        assert "No model worker encoded" in response.json()["message"]
    assert (
        'encoded "transformers"'
        in query(signed_in(annotator), annotation.pk, mention=outside.pk).json()["message"]
    )


def test_only_the_corpora_of_ones_own_projects(world):
    work, annotator, annotation = world.work, world.annotator, world.annotation
    bert = mention_reading(work, "BERT", "doc-20")
    other_project = Project.objects.create(name="ChEMU")
    other_corpus = Corpus.objects.create(name="patents")
    other_corpus.projects.add(other_project)
    outsider = UserFactory()
    _, outsiders_annotation = assign(make_topic(other_project), outsider)

    # someone else's annotation, and so its project's corpus: not found
    assert query(signed_in(outsider), annotation.pk, mention=bert.pk).status_code == 404
    # a corpus of a project not theirs, named by id: not found either
    response = query(signed_in(annotator), annotation.pk, text="BERT", corpus=other_corpus.pk)
    assert response.status_code == 404
    # their own project has a corpus, but not an indexed one: not found, in words
    response = query(signed_in(outsider), outsiders_annotation.pk, text="BERT")
    assert response.status_code == 404
    assert "ChEMU" in response.json()["message"]
    # a mention of another topic through one's own annotation
    stranger = make_topic(other_project).mentions.all()[0]
    assert query(signed_in(annotator), annotation.pk, mention=stranger.pk).status_code == 404
    # signed out
    assert query(APIClient(), annotation.pk, mention=bert.pk).status_code == 403
    # neither a mention nor a text
    response = query(signed_in(annotator), annotation.pk)
    assert response.status_code == 400
    assert "either a mention or a text" in str(response.json())
