"""A job's uploaded file, stored through Django's storage API (a local folder or a bucket), as
the worker that runs the job reads and then removes it. The annotation import jobs and the
corpus imports both store their uploads this way."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.core.files.storage import default_storage


@contextmanager
def local_copy(stored: str) -> Iterator[Path]:
    """The stored upload as a local file the readers can open (a zip needs seeking): the file
    itself for a job queued before uploads went through the storage API (an absolute path),
    else a copy in this process's temporary folder, removed afterwards."""
    if Path(stored).is_absolute():
        yield Path(stored)
        return
    with tempfile.TemporaryDirectory(prefix="import-job-") as folder:
        local = Path(folder) / Path(stored).name
        with default_storage.open(stored, "rb") as source, open(local, "wb") as target:
            shutil.copyfileobj(source, target)
        yield local


def remove_stored(stored: str) -> None:
    if Path(stored).is_absolute():
        Path(stored).unlink(missing_ok=True)
    else:
        default_storage.delete(stored)
