"""Corpus imports on the real database: each format's documents and mentions written, every
kind of bad input failing the job with nothing written, a second import of the same file
writing nothing twice, and a take-over after a worker died resuming after the batches it had
committed. The job's body runs here as the worker runs it (corpus_import_run); one test goes
through the API and a real Celery worker."""

from __future__ import annotations

import json
import time
from datetime import timedelta
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from annotation.models import Document, Topic
from corpus.models import Corpus, CorpusDocument, CorpusImport, CorpusMention
from corpus.reading import records
from corpus.services import imports
from foundation.jobs import lifecycle
from tests.corpus.build import job_for, run
from tests.corpus.files import corpus_line, dygiepp_line, scico_words, write_lines
from tests.workers import start_worker

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("format", "line", "documents", "mentions"),
    [
        ("corpus-jsonl", corpus_line, 3, 6),
        ("dygiepp", dygiepp_line, 3, 12),
        ("scico", scico_words, 6, 9),
    ],
)
def test_each_format_is_imported_without_workspace_state(
    tmp_path, format, line, documents, mentions
):
    corpus = Corpus.objects.create(name=format)
    path = write_lines(tmp_path / "c.jsonl", [line(i) for i in range(3)])

    job = run(job_for(corpus, path, format))

    assert job.status == "succeeded", (job.message, job.errors)
    assert CorpusDocument.objects.filter(corpus=corpus).count() == documents
    assert CorpusMention.objects.filter(corpus=corpus).count() == mentions
    assert job.result == {
        "documents": documents,
        "mentions": mentions,
        "written": documents,
        "skipped": 0,
    }
    assert job.progress == 1.0
    # a corpus document is no topic: nothing in any project's workspace
    assert not Topic.objects.exists()
    assert not Document.objects.exists()
    texts = set(CorpusMention.objects.filter(corpus=corpus).values_list("text", flat=True))
    assert "BERT" in texts or "transformer model" in texts


GOOD = [corpus_line(f"d{i}") for i in range(1200)]  # more than two batches of writing


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ("{not json", "line 1201: is not JSON"),
        (corpus_line("d7"), "line 1201: document id 'd7' is used twice (first at line 8)"),
        (corpus_line("x", [(3, 99, "Task")]), "mention [3, 99] is outside the text"),
    ],
    ids=["malformed", "duplicate-id", "span-outside"],
)
def test_bad_input_fails_the_job_and_writes_nothing(tmp_path, bad, says):
    corpus = Corpus.objects.create(name="bad")
    path = write_lines(tmp_path / "c.jsonl", [*GOOD, bad])

    job = run(job_for(corpus, path, "corpus-jsonl"))

    assert job.status == "failed"
    assert job.message == "1 problem(s) in the file; nothing was imported"
    assert len(job.errors) == 1, job.errors
    assert says in job.errors[0], job.errors
    assert not CorpusDocument.objects.exists()
    assert not CorpusMention.objects.exists()


def test_a_file_of_the_wrong_format_fails_and_writes_nothing(tmp_path):
    corpus = Corpus.objects.create(name="wrong")
    path = write_lines(tmp_path / "pred.jsonl", [dygiepp_line(f"P{i}") for i in range(10)])

    job = run(job_for(corpus, path, "corpus-jsonl"))

    assert job.status == "failed"
    assert job.errors == [
        (
            "pred.jsonl is not a corpus-jsonl file: its first document is not a corpus document: "
            "it needs an id and its sentences; it looks like DyGIE++ predictions (dygiepp). "
            "Choose that format, or check the file."
        )
    ]
    assert not CorpusDocument.objects.exists()


def test_the_same_file_again_writes_nothing_twice_and_other_content_is_refused(tmp_path):
    corpus = Corpus.objects.create(name="again")
    path = write_lines(tmp_path / "c.jsonl", GOOD[:600])
    assert run(job_for(corpus, path, "corpus-jsonl")).status == "succeeded"

    again = run(job_for(corpus, path, "corpus-jsonl"))

    assert again.status == "succeeded"
    assert (again.documents_written, again.documents_skipped) == (0, 600)
    assert "600 already in the corpus" in again.message
    assert CorpusDocument.objects.filter(corpus=corpus).count() == 600
    assert CorpusMention.objects.filter(corpus=corpus).count() == 1200

    changed = write_lines(
        tmp_path / "d.jsonl", [corpus_line("new"), corpus_line("d3", [(0, 0, "Task")])]
    )
    refused = run(job_for(corpus, changed, "corpus-jsonl"))
    assert refused.status == "failed"
    assert refused.errors == ["document 'd3' is already in the corpus with other words or mentions"]
    assert not CorpusDocument.objects.filter(doc_id="new").exists()


def test_a_taken_over_import_resumes_after_the_committed_batches(tmp_path, settings):
    """The first worker committed one batch (and its count) and died; the next claims the job
    once the heartbeat is stale and writes the rest, each document once."""
    corpus = Corpus.objects.create(name="resume")
    path = write_lines(tmp_path / "c.jsonl", GOOD)
    job = job_for(corpus, path, "corpus-jsonl")
    first = lifecycle.claim(CorpusImport, job.pk, worker="worker-a").job
    batch = [found for _, found in records("corpus-jsonl", path)][: imports.BATCH]
    imports._write_batch(first, batch)  # committed, then the worker was killed
    stale = timezone.now() - timedelta(seconds=settings.SUGGEST_HEARTBEAT_STALE_SECONDS + 5)
    CorpusImport.objects.filter(pk=job.pk).update(heartbeat_at=stale)

    job = run(job, worker="worker-b")

    assert job.status == "succeeded", (job.message, job.errors)
    assert (job.attempts, job.worker) == (2, "worker-b")
    assert (job.documents_written, job.documents_skipped) == (1200, 0)
    assert CorpusDocument.objects.filter(corpus=corpus).count() == 1200
    assert CorpusMention.objects.filter(corpus=corpus).count() == 2400
    # the paused first worker writes nothing once it wakes
    with pytest.raises(imports._TakenOver):
        imports._write_batch(first, batch)


def test_an_upload_is_imported_by_the_worker_and_polled(services, admin_client):
    worker = start_worker(services, queues="default", name="corpus-test")
    try:
        made = admin_client.post("/api/corpora/", {"name": "cs"}, format="json")
        assert made.status_code == 201, made.content
        content = "".join(f"{json.dumps(dygiepp_line(f'P{i}'))}\n" for i in range(40))
        answer = admin_client.post(
            f"/api/corpora/{made.json()['id']}/imports/",
            {"file": SimpleUploadedFile("pred.jsonl", content.encode()), "format": "dygiepp"},
        )
        assert answer.status_code == 202, answer.content
        deadline = time.monotonic() + 120
        while (body := admin_client.get(f"/api/corpus-imports/{answer.json()['job']}/").json())[
            "status"
        ] not in ("succeeded", "failed"):
            assert time.monotonic() < deadline, body
            time.sleep(0.2)
    finally:
        worker.stop()
    assert body["status"] == "succeeded", body
    summary = admin_client.get(f"/api/corpora/{made.json()['id']}/").json()
    assert (summary["documents"], summary["mentions"]) == (40, 160)


def test_the_command_line_imports_a_server_file_once(tmp_path):
    path = write_lines(tmp_path / "pred.jsonl", [dygiepp_line(f"P{i}") for i in range(5)])
    out = StringIO()

    call_command("import_corpus", "cmd", str(path), format="dygiepp", stdout=out)
    call_command("import_corpus", "cmd", str(path), format="dygiepp", stdout=out)

    assert out.getvalue().splitlines() == [
        "5 documents and 20 mentions imported",
        "0 documents and 0 mentions imported; 5 already in the corpus",
    ]
    assert CorpusMention.objects.filter(corpus__name="cmd").count() == 20
    assert path.exists()  # a server file is read where it is, and kept
    with pytest.raises(CommandError, match="is not a dygiepp file"):
        call_command(
            "import_corpus",
            "cmd",
            str(write_lines(tmp_path / "s.jsonl", [scico_words(1)])),
            format="dygiepp",
        )


def test_an_upload_of_an_unknown_format_is_refused_at_once(admin_client):
    corpus = Corpus.objects.create(name="refused")
    upload = SimpleUploadedFile("c.jsonl", json.dumps(corpus_line("a")).encode())

    answer = admin_client.post(
        f"/api/corpora/{corpus.pk}/imports/", {"file": upload, "format": "nope"}
    )

    assert answer.status_code == 400, answer.content
    assert answer.json()["error"] == "import_refused"
    assert "'nope' is not a corpus format" in answer.json()["message"]
    assert not CorpusImport.objects.exists()
