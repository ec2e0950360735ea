"""What an import reads: one file or stream, or a folder (an unpacked zip), which becomes the
inputs the format's reader takes, with the checks that come before any reading.

A folder is searched at any depth (a zip of a folder of folders reads like a flat one): for a
one-file format (SciCo, ChEMU-Ref) every file with the format's extension is read; for a folder
format (CoRefi, brat) every folder holding such files. Hidden files and macOS's `__MACOSX` are
left out, other files are listed in a warning, and an archive inside the archive is refused:
its contents would otherwise be silently ignored.
"""

from __future__ import annotations

import os
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

from django.conf import settings

from annotation.errors import ImportRefused
from corefscore.formats import FORMATS, FormatErrors, FormatWarning, ImportReport, read

# The formats whose files carry anaphora links: read with the workspace's link rules.
LINK_FORMATS = ("chemu", "brat")
# Per format: the extensions of the files its reader takes, and of the one file per topic of
# a folder format (counted against IMPORT_MAX_TOPICS before anything is read).
EXTENSIONS = {
    "scico": (".jsonl", ".json"),
    "chemu": (".jsonlines", ".jsonl"),
    "corefi": (".json",),
    "brat": (".txt", ".ann"),
    "corefud": (".conllu",),
    "label-studio": (".json",),
    "webanno-tsv": (".tsv",),
    "webanno-tsv-folders": (".tsv",),
    "uima-xmi": (".xmi", ".xml"),
    "uima-xmi-folders": (".xmi", ".xml"),
}
TOPIC_FILE = {"corefi": ".json", "brat": ".txt", "webanno-tsv": ".tsv", "uima-xmi": ".xmi"}
# Formats whose reader walks the whole folder itself (a topic may be a folder of files).
WHOLE_FOLDER = ("webanno-tsv", "webanno-tsv-folders", "uima-xmi", "uima-xmi-folders")
# What zipfile raises on an archive whose bytes were damaged
# (tests/annotation/services/imports/test_import_generated.py changes bytes of a good zip at
# random and found each of these).
DAMAGED = (
    zipfile.BadZipFile,
    EOFError,
    zlib.error,
    NotImplementedError,
    RuntimeError,
    ValueError,
    IndexError,
    struct.error,
    OverflowError,
)
ARCHIVES = (".zip", ".tar", ".tgz", ".gz", ".bz2", ".xz", ".7z", ".rar")


def is_folder(source: Any) -> bool:
    return isinstance(source, (str, os.PathLike)) and Path(source).is_dir()


def is_zip_path(source: Any) -> bool:
    return (
        isinstance(source, (str, os.PathLike))
        and Path(source).is_file()
        and zipfile.is_zipfile(source)
    )


def source_read(format: str, *, source: Any, skip_invalid: bool, name: str) -> ImportReport:
    """The reader's report for `source`; a folder's inputs read one by one and merged (every
    error of every file is raised together)."""
    options = {"link_rules": True} if format in LINK_FORMATS else {}
    if not is_folder(source):
        return read(format, source, skip_invalid=skip_invalid, **options)
    inputs, ignored = folder_inputs(format, folder=Path(source), name=name)
    report = ImportReport()
    errors = []
    for input in inputs:
        try:
            report.extend(read(format, input, skip_invalid=skip_invalid, **options))
        except FormatErrors as error:
            errors += error.errors
    if errors:
        raise FormatErrors(errors)
    report.warnings += ignored
    return report


def folder_inputs(
    format: str, *, folder: Path, name: str
) -> tuple[list[Path], list[FormatWarning]]:
    """(what the reader is given, warnings about the files left out), in path order; refused
    when an archive is inside, when nothing fits the format, and when a folder format holds
    more topic files than one import may create."""
    files = sorted(
        path
        for path in folder.rglob("*")
        if path.is_file()
        and not any(part.startswith((".", "__MACOSX")) for part in path.relative_to(folder).parts)
    )
    nested = [path for path in files if path.name.lower().endswith(ARCHIVES)]
    if nested:
        shown = [str(path.relative_to(folder)) for path in nested]
        raise ImportRefused(
            f"{name} holds another archive ({', '.join(shown[:3])}); archives inside an "
            "archive are not read: unpack it and upload its files. Nothing was imported.",
            [f"{name}: {path}: an archive inside the archive" for path in shown],
        )
    extensions = EXTENSIONS[format]
    matching = [path for path in files if path.suffix.lower() in extensions]
    if not matching:
        raise ImportRefused(
            f"{name} holds no {' or '.join(extensions)} file; nothing was imported",
            [f"{name}: no {' or '.join(extensions)} file"],
        )
    per_topic = TOPIC_FILE.get(format)
    if per_topic is not None:
        topics_check(sum(path.suffix.lower() == per_topic for path in matching), name=name)
    ignored = [
        FormatWarning(path.name, None, None, f"not a {' or '.join(extensions)} file; not read")
        for path in files
        if path.suffix.lower() not in extensions
    ]
    if format in WHOLE_FOLDER:
        return [folder], ignored
    if FORMATS[format].folder:
        return sorted({path.parent for path in matching}), ignored
    return matching, ignored


def topics_check(count: int, *, name: str) -> None:
    """Refuse more topics than one import may create (IMPORT_MAX_TOPICS)."""
    limit = settings.IMPORT_MAX_TOPICS
    if count > limit:
        message = (
            f"{name} has {count:,} topics, above the {limit:,}-topic limit of one import "
            "(IMPORT_MAX_TOPICS); split it into several imports. Nothing was imported."
        )
        raise ImportRefused(message, [message])


def folder_size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def unzip(archive: Any, *, target: Path, name: str) -> Path:
    """Extract a zip (a path or an open file) into `target` safely: no member may leave it,
    nor unpack beyond MAX_UPLOAD_BYTES in all; an archive inside is refused later, when the
    folder's inputs are listed."""
    try:
        return _unzip(archive, target, name)
    # A damaged archive: a size or CRC that lies, a truncated member, a method or encryption
    # zipfile cannot read, a header whose offsets or name bytes make no sense (zipfile then
    # raises ValueError, IndexError...). Found while extracting, before anything is imported.
    except DAMAGED as error:
        raise ImportRefused(
            f"{name} is a damaged zip archive ({error}); nothing was imported",
            [f"{name}: a damaged zip archive ({error})"],
        ) from None


def _unzip(archive: Any, target: Path, name: str) -> Path:
    with zipfile.ZipFile(archive) as opened:
        for member in opened.infolist():
            destination = (target / member.filename).resolve()
            if not destination.is_relative_to(target.resolve()):
                raise ImportRefused(
                    f"{name}: {member.filename} points outside the archive", [member.filename]
                )
        total = sum(member.file_size for member in opened.infolist())
        if total > settings.MAX_UPLOAD_BYTES:
            raise ImportRefused(f"{name} unpacks to {total:,} bytes, above the limit", [name])
        opened.extractall(target)
    return target
