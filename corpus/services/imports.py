"""A corpus file imported by the general worker (queue `default`), a job like every other
(foundation/jobs/lifecycle.py).

The file is checked whole before anything is written: every line's problems, duplicate ids,
a file of another format, and documents whose id the corpus already holds with other content.
Any of them fails the job with every problem listed and nothing written. Then documents are
written in batches, each batch with the job's counts in one transaction that first checks the
worker still owns the job; a document the corpus already holds with the same content is
skipped. So a worker killed mid-file leaves whole batches, the take-over (acks late, stale
heartbeat) writes the rest, and importing the same file again writes nothing twice.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable

from celery import current_app
from django.conf import settings
from django.core.files.storage import default_storage
from django.db import close_old_connections, transaction
from django.db.models import F

from annotation.errors import ImportRefused, UploadTooLarge
from annotation.infra.file_names import safe_file_name
from corpus.models import Corpus, CorpusDocument, CorpusImport, CorpusMention
from corpus.reading import CORPUS_FORMATS, CheckReport, DocumentRecord, check, records
from foundation.jobs import lifecycle
from foundation.jobs.stored_files import local_copy, remove_stored
from foundation.side_effects import after_commit

logger = logging.getLogger(__name__)

IMPORT_TASK = "corpus.import_corpus"
BATCH = 500
# the share of the bar the check takes; writing takes the rest
CHECKED = 0.3


class _TakenOver(Exception):
    """Another worker owns the import now: this batch is rolled back, the rest is theirs."""


def corpus_import_create(*, corpus: Corpus, upload, format: str, user=None) -> CorpusImport:
    """Store `upload` and queue its import; a refusal that needs no reading comes at once."""
    if format not in CORPUS_FORMATS:
        raise ImportRefused(
            f"'{format}' is not a corpus format; choose one of {', '.join(CORPUS_FORMATS)}",
            [upload.name],
        )
    if upload.size > settings.MAX_UPLOAD_BYTES:
        raise UploadTooLarge(
            f"{upload.name} is {upload.size:,} bytes, above the {settings.MAX_UPLOAD_BYTES:,}-"
            "byte limit: import it with `manage.py import_corpus` on the server"
        )
    upload.seek(0)
    name = (
        f"{settings.IMPORT_UPLOADS_DIR}/corpus-{secrets.token_hex(8)}-{safe_file_name(upload.name)}"
    )
    stored = default_storage.save(name, upload)
    return _queued(corpus, str(stored), upload.name, format, user)


def corpus_import_file(*, corpus: Corpus, path: str, format: str, user=None) -> CorpusImport:
    """A file on the server's own disk (the command line: no upload limit), imported in this
    process by the job's own body, read where it is and kept. The same job as an upload's:
    a second run of the command skips what the first wrote."""
    if format not in CORPUS_FORMATS:
        raise ImportRefused(f"'{format}' is not a corpus format", [path])
    job = CorpusImport.objects.create(
        corpus=corpus,
        user=user,
        file_name=path.rsplit("/", 1)[-1][:300],
        format=format,
        path=f"keep:{path}",
        message="importing on the command line",
    )
    corpus_import_run(job_id=job.pk, worker="command line")
    job.refresh_from_db()
    return job


def _queued(corpus, path, file_name, format, user) -> CorpusImport:
    with transaction.atomic():
        job = CorpusImport.objects.create(
            corpus=corpus,
            user=user,
            file_name=file_name[:300],
            format=format,
            path=path,
            message="waiting for a worker",
        )
        after_commit(_send, job.pk)
    return job


def _send(job_id: int) -> None:
    lifecycle.send_or_fail(
        CorpusImport,
        job_id,
        lambda: current_app.send_task(IMPORT_TASK, kwargs={"job_id": job_id}, queue="default"),
    )


def _stored(job: CorpusImport) -> tuple[str, bool]:
    """(path, kept): a command-line file is read where it is and kept."""
    if job.path.startswith("keep:"):
        return job.path[len("keep:") :], True
    return job.path, False


def _remove(job: CorpusImport) -> None:
    path, kept = _stored(job)
    if not kept:
        remove_stored(path)


def corpus_import_run(*, job_id: int, worker: str = "") -> str:
    """The task's body: check the stored file, then write it in owned batches."""
    close_old_connections()
    claim = lifecycle.claim(CorpusImport, job_id, worker=worker)
    if not claim.claimed:
        if claim.outcome == "exhausted":
            _remove(claim.job)
        return claim.answer()
    job: CorpusImport = claim.job
    progress = lifecycle.progress_reporter(job)
    try:
        with lifecycle.Heartbeat(job), local_copy(_stored(job)[0]) as path:
            report = _checked(job, path, progress)
            if not report.ok:
                return _finish(job, CorpusImport.Status.FAILED, report.summary(), report.errors)
            _write(job, path, report, progress)
    except _TakenOver:
        return "skipped: another worker took the import over"
    except Exception as error:  # the job records any failure for the page that polls it
        logger.exception("corpus import %s failed", job_id)
        return _finish(job, CorpusImport.Status.FAILED, f"{type(error).__name__}: {error}")
    job.refresh_from_db()
    result = {
        "documents": report.documents,
        "mentions": report.mentions,
        "written": job.documents_written,
        "skipped": job.documents_skipped,
    }
    message = (
        f"{job.documents_written:,} documents and {job.mentions_written:,} mentions imported"
        + (f"; {job.documents_skipped:,} already in the corpus" if job.documents_skipped else "")
    )
    return _finish(job, CorpusImport.Status.SUCCEEDED, message, result=result)


def _checked(job: CorpusImport, path, progress: Callable[[float, str], None]) -> CheckReport:
    progress(0.0, "checking the file")
    report = check(job.format, path, name=job.file_name)
    if report.ok:
        for problem in _conflicts(job.corpus, report):
            report.error(problem)
    progress(CHECKED, f"checked {report.documents:,} documents")
    return report


def _conflicts(corpus: Corpus, report: CheckReport) -> list[str]:
    """Documents the corpus holds under the same id with other content."""
    problems = []
    ids = list(report.digests)
    for start in range(0, len(ids), 5000):
        held = CorpusDocument.objects.filter(
            corpus=corpus, doc_id__in=ids[start : start + 5000]
        ).values_list("doc_id", "digest")
        problems += [
            f"document '{doc_id}' is already in the corpus with other words or mentions"
            for doc_id, digest in held
            if digest != report.digests[doc_id]
        ]
    return problems


def _write(job: CorpusImport, path, report: CheckReport, progress) -> None:
    # Batches commit in file order with the job's counts, so a take-over resumes after the
    # documents its counts cover (the corpus's unique ids guard the rest).
    done = job.documents_written + job.documents_skipped
    batch: list[DocumentRecord] = []
    for position, (_where, found) in enumerate(records(job.format, path)):
        if position < done:
            continue
        if not isinstance(found, DocumentRecord):  # checked above: not reached
            raise ImportRefused("the file changed while it was imported", [job.file_name])
        batch.append(found)
        if len(batch) == BATCH:
            done += _write_batch(job, batch)
            batch = []
            progress(
                CHECKED + (1 - CHECKED) * done / max(1, report.documents),
                f"written {done:,} of {report.documents:,} documents",
            )
    if batch:
        _write_batch(job, batch)


def _write_batch(job: CorpusImport, batch: list[DocumentRecord]) -> int:
    """One batch and the job's counts, or nothing: only while this worker owns the job."""
    with transaction.atomic():
        if not lifecycle.still_owned(job):
            raise _TakenOver
        # one writer per corpus at a time: two imports of overlapping files skip, not collide
        Corpus.objects.select_for_update().filter(pk=job.corpus_id).first()
        held = set(
            CorpusDocument.objects.filter(
                corpus_id=job.corpus_id, doc_id__in=[d.doc_id for d in batch]
            ).values_list("doc_id", flat=True)
        )
        new = [d for d in batch if d.doc_id not in held]
        rows = CorpusDocument.objects.bulk_create(
            CorpusDocument(
                corpus_id=job.corpus_id,
                doc_id=d.doc_id,
                tokens=d.tokens,
                sentences=[list(s) for s in d.sentences],
                metadata=d.metadata,
                digest=d.digest(),
                source=job.file_name,
            )
            for d in new
        )
        mentions = CorpusMention.objects.bulk_create(
            (
                CorpusMention(
                    corpus_id=job.corpus_id,
                    document=row,
                    start=m.start,
                    end=m.end,
                    spans=[list(s) for s in m.spans] if m.spans else None,
                    label=m.label,
                    score=m.score,
                    text=d.surface(m),
                )
                for row, d in zip(rows, new, strict=True)
                for m in d.mentions
            ),
            batch_size=5000,
        )
        written = lifecycle.owned(job).update(
            documents_written=F("documents_written") + len(new),
            documents_skipped=F("documents_skipped") + len(held),
            mentions_written=F("mentions_written") + len(mentions),
        )
        if not written:
            raise _TakenOver
    return len(batch)


def _finish(job: CorpusImport, status: str, message: str, errors=None, result=None) -> str:
    if not lifecycle.finish(job, status, message, errors=list(errors or []), result=result):
        return "skipped: another worker took the import over"
    after_commit(_remove, job)
    return f"{status}: {message}"
