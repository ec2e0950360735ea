"""Import an uploaded file: a single file as it is, a zip (a folder of files) unpacked first.

An upload is checked before it is read: its size and the size it unpacks to against
MAX_UPLOAD_BYTES, every path in a zip must stay inside the archive, and an archive inside it
is refused (sources.py)."""

from __future__ import annotations

import tempfile
import zipfile
from pathlib import Path

from django.conf import settings

from annotation.errors import ImportRefused, UploadTooLarge
from annotation.models import Project
from annotation.services.imports.sources import unzip
from annotation.services.imports.topics import ImportResult, topics_import


def topics_upload_import(
    *,
    project: Project,
    upload,
    format: str,
    skip_invalid: bool = False,
    raw: str | None = None,
    user=None,
) -> ImportResult:
    """`topics_import` of an uploaded file (brat needs a zip of its folder)."""
    limit = settings.MAX_UPLOAD_BYTES
    if upload.size > limit:
        raise UploadTooLarge(
            f"{upload.name} is {upload.size:,} bytes, above the {limit:,}-byte limit"
        )
    with tempfile.TemporaryDirectory() as folder:
        source = upload
        if zipfile.is_zipfile(upload):
            upload.seek(0)
            source = unzip(upload, target=Path(folder), name=upload.name)
        elif format == "brat":
            raise ImportRefused(
                "brat needs a .txt and an .ann per document: upload a .zip of the folder",
                [upload.name],
            )
        else:
            upload.seek(0)
        return topics_import(
            project=project,
            path=source,
            format=format,
            skip_invalid=skip_invalid,
            raw=raw,
            user=user,
            name=upload.name,
        )
