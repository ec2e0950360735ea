"""A release bundle kept in the default storage, so that any web process can hand it out.

`dataset_release --store` (and the release job the Datasets page starts, release_jobs.py)
builds the bundle of `release.dataset_release` in a temporary folder, zips it and stores it as
releases/<project id>/<project name>-release.zip: var/releases locally, the bucket with
STORAGE_URL. A new release of the project replaces the stored one. GET on the same address
downloads it through the app (admins only), wherever it is stored.
"""

from __future__ import annotations

import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from django.core.files import File
from django.core.files.storage import default_storage

from annotation.models import Project
from datasets.selectors import release_name
from datasets.services.release import Progress, ReleaseResult, dataset_release


@dataclass(frozen=True)
class StoredRelease:
    name: str  # in the default storage
    size: int
    files: list[str]
    warnings: list[str]


def dataset_release_store(
    *,
    project: Project,
    formats: list[str] | None = None,
    with_names: bool = False,
    source: str | None = None,
    progress: Progress | None = None,
) -> StoredRelease:
    name = release_name(project)
    with tempfile.TemporaryDirectory(prefix="release-") as work:
        folder = Path(work) / "bundle"
        result: ReleaseResult = dataset_release(
            project=project,
            out=folder,
            formats=formats,
            with_names=with_names,
            source=source,
            progress=progress,
        )
        if progress is not None:
            progress(0.9, "zipping and storing the bundle")
        archive = Path(work) / "bundle.zip"
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
            for path in sorted(folder.rglob("*")):
                if path.is_file():
                    bundle.write(path, path.relative_to(folder).as_posix())
        with open(archive, "rb") as zipped:
            # Overwrite on S3 (file_overwrite); the file system storage would add a suffix.
            default_storage.delete(name)
            stored = default_storage.save(name, File(zipped))
        size = archive.stat().st_size
    return StoredRelease(stored, size, result.files, result.warnings)
