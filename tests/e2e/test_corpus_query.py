"""Query by example in the workspace, with a real model worker: the corpus is encoded by it,
W (listed in ?) opens the read-only panel on the current mention with its neighbours across
the corpus in their sentences, the gold topic's cluster and parent shown on a neighbour it
holds, and a free text typed in the panel encoded by the worker. Screenshots in
test-artifacts/corpus-query-*.png."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from corpus.models import Corpus
from modelserve.services.corpus_encoding import corpus_encoding_start
from tests.corpus.build import imported_corpus, query_topics
from tests.e2e.workspace import open_workspace, press
from tests.factories import UserFactory, assign
from tests.workers import start_worker

DOCUMENTS = 40


@pytest.fixture(scope="module")
def model_worker(django_db_setup, services):
    worker = start_worker(services, SUGGEST_DEVICE="cpu")
    yield worker
    worker.stop()


def encoded_by_the_worker(corpus: Corpus, timeout: float = 180) -> Corpus:
    corpus_encoding_start(corpus=corpus, chunk_size=40)  # chunks sent after commit
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        corpus.refresh_from_db()
        if corpus.active_encoding_id is not None:
            return corpus
        time.sleep(0.3)
    raise AssertionError(f"the worker did not encode {corpus.name} within {timeout} s")


def test_w_shows_the_mentions_neighbours_in_context_with_gold_clusters_and_free_text(
    new_page, model_worker, artifacts, tmp_path
):
    corpus = encoded_by_the_worker(imported_corpus(tmp_path, "cs-abstracts", DOCUMENTS))
    _, work = query_topics(corpus, DOCUMENTS)
    user = UserFactory()
    assignment, _ = assign(work, user)
    page = open_workspace(new_page(user), assignment.pk)
    expect(page.locator(".m.is-current").first).to_have_text("BERT")  # doc-20's method

    press(page, "?")
    help = page.get_by_role("dialog", name="Keyboard shortcuts")
    row = help.locator("dt", has=page.locator("kbd", has_text=re.compile("^W$")))
    expect(row.first).to_be_visible()
    expect(help).to_contain_text("What else the corpus means by it")
    press(page, "Escape")
    expect(help).to_be_hidden()

    with page.expect_response(lambda r: "/corpus-query/" in r.url) as response:
        press(page, "w")
    assert response.value.json()["query"]["vector_from"] == "corpus"  # its own stored vector
    panel = page.get_by_role("dialog", name="Similar mentions in the corpus")
    expect(panel.get_by_test_id("similar-mentions")).to_have_attribute("data-state", "ready")
    expect(panel.get_by_role("heading")).to_contain_text('Like "BERT"')
    hits = panel.get_by_role("list", name="Similar mentions").locator(":scope > li")
    expect(hits).to_have_count(10)
    # each in its sentence, the mention marked
    expect(hits.first.locator("mark")).to_have_text("BERT")
    expect(hits.first).to_contain_text(re.compile(r"We use BERT for \w+"))
    # how the gold topic treated it: cluster, size, parent
    expect(panel.get_by_test_id("similar-treatment").first).to_have_text(
        "Gold, gold-topic: in BERT (4 mentions), under neural models"
    )
    page.screenshot(path=str(artifacts / "corpus-query-1-mention.png"))
    took = page.evaluate(
        "() => performance.measure('panel', 'similar-key', 'similar-shown').duration"
    )
    print(f"key to screen: {took:.0f} ms")

    field = panel.get_by_role("textbox", name="Look up any text in the corpus")
    field.fill("a recurrent neural network")
    with page.expect_response(lambda r: "/corpus-query/" in r.url) as response:
        field.press("Enter")
    answer = response.value.json()
    assert answer["query"] == {"text": "a recurrent neural network", "vector_from": "worker"}
    expect(panel.get_by_role("heading")).to_contain_text("“a recurrent neural network”")
    expect(hits).to_have_count(10)
    expect(hits.first.locator("mark")).to_have_text(answer["neighbours"][0]["text"])
    page.screenshot(path=str(artifacts / "corpus-query-2-text.png"))

    press(page, "Escape")
    expect(panel).to_be_hidden()
    assert page.errors == []  # type: ignore[attr-defined]  # set by new_page
