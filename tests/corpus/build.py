"""Corpora on the test database, imported by the import job's own body (no worker)."""

from __future__ import annotations

from pathlib import Path

from corpus.models import Corpus, CorpusImport
from corpus.services import imports
from tests.corpus.files import write_lines

METHODS = ["BERT", "a support vector machine", "random forests", "an LSTM", "beam search"]
TASKS = ["parsing", "machine translation", "image segmentation", "question answering"]


def varied_line(i: int) -> dict:
    """A one-sentence document: a method (words 2..) applied to a task (after "for")."""
    method = METHODS[i % len(METHODS)].split()
    task = TASKS[(i // len(METHODS)) % len(TASKS)].split()
    words = ["We", "use", *method, "for", *task, f"in study {i}", "."]
    words = [w for part in words for w in part.split()]
    start = 2
    task_start = start + len(method) + 1
    return {
        "id": f"doc-{i}",
        "sentences": [words],
        "mentions": [
            {"start": start, "end": start + len(method) - 1, "label": "Method"},
            {"start": task_start, "end": task_start + len(task) - 1, "label": "Task"},
        ],
    }


def job_for(corpus: Corpus, path: Path, format: str) -> CorpusImport:
    """The job row as an upload makes it, without sending its task: the job's
    body runs in this process."""
    return CorpusImport.objects.create(
        corpus=corpus, file_name=path.name, format=format, path=f"keep:{path}"
    )


def run(job: CorpusImport, worker: str = "worker-a") -> CorpusImport:
    imports.corpus_import_run(job_id=job.pk, worker=worker)
    job.refresh_from_db()
    return job


def imported_corpus(folder: Path, name: str, documents: int) -> Corpus:
    corpus = Corpus.objects.create(name=name)
    path = write_lines(folder / f"{name}.jsonl", [varied_line(i) for i in range(documents)])
    job = run(job_for(corpus, path, "corpus-jsonl"))
    assert job.status == "succeeded", (job.message, job.errors)
    return corpus


def encoded_corpus(folder: Path, name: str, documents: int) -> Corpus:
    """An imported corpus encoded by the packaged MiniLM, its one chunk run in this process
    as a model worker runs it."""
    from modelserve.services import corpus_encoding

    corpus = imported_corpus(folder, name, documents)
    encoding = corpus_encoding.corpus_encoding_start(corpus=corpus, chunk_size=100_000)
    for chunk in encoding.chunks.all():
        outcome = corpus_encoding.encode_chunk_execute(chunk_id=chunk.pk, worker="worker-a")
        assert outcome.startswith("succeeded"), outcome
    corpus.refresh_from_db()
    assert corpus.active_encoding is not None
    return corpus
