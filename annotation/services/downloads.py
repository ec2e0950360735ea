"""A project's export as one download: a one-file export as it is, a folder (one output per
annotator, or a folder format) zipped. Written in a temporary folder that is always removed."""

from __future__ import annotations

import io
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from annotation.infra.file_names import path_inside, safe_file_name
from annotation.models import Project
from annotation.services.exports import annotations_export
from corefscore.formats import FORMATS


@dataclass(frozen=True)
class Download:
    """An open file (`zipped`: an in-memory zip of a folder), the name to save it under and
    the writer's warnings (what the format could not hold), which the page shows."""

    file: BinaryIO
    filename: str
    zipped: bool
    warnings: tuple[str, ...] = ()


def annotations_download(*, project: Project, format: str, source: str | None) -> Download:
    """`annotations_export` of the project (see there for `source`), ready to send."""
    folder = Path(tempfile.mkdtemp(prefix="export-"))
    try:
        known = FORMATS.get(format)
        per_user = source in ("submitted", "all") or (known is not None and known.folder)
        extension = known.extension if known is not None else ""
        name = safe_file_name(project.name)
        out = path_inside(folder, "export" if per_user else f"{name}{extension}")
        result = annotations_export(project=project, format=format, out=out, source=source)
        warnings = tuple(
            line.removeprefix("warning: ")
            for line in result.lines()
            if line.startswith("warning: ")
        )
        if out.is_file():
            # Still readable once the folder is gone (POSIX keeps an open file's content).
            return Download(open(out, "rb"), out.name, zipped=False, warnings=warnings)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(out.rglob("*")):
                if path.is_file():
                    archive.write(path, path.relative_to(out))
        buffer.seek(0)
        return Download(
            buffer, f"{name}-{safe_file_name(format)}.zip", zipped=True, warnings=warnings
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
