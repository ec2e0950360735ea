"""Where a topic is in the uploaded input: file, record and field, for errors the readers cannot
see (a topic id already in the project or used by two files of one folder, a topic without
tokens).

Readers return topics without their line numbers, and such errors are rare, so the input is
looked through again only when one is found.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from annotation.services.imports.sources import folder_inputs
from corefscore.formats import FormatError
from corefscore.formats._io import display_name

ID_FIELD = {"scico": "id", "chemu": "doc_key", "corefi": "id"}
Location = tuple[str, Any, str | None]


def _topic_locations(
    format: str, path: Any, external_ids: Iterable[str]
) -> dict[str, list[Location]]:
    """external id -> every (file, record, field) that declares it, in input order."""
    wanted = set(external_ids)
    found: dict[str, list[Location]] = {}
    for external_id, location in _declarations(format, path):
        if external_id in wanted:
            found.setdefault(external_id, []).append(location)
    return found


_ID = object()


def topic_errors(
    format: str, *, path: Any, problems: dict[str, str], field: Any = _ID
) -> list[FormatError]:
    """One error per declaration of each external id in `problems` (id -> message), naming
    the id's field, or `field` when given (None: the record as a whole)."""
    locations = _topic_locations(format, path, problems)
    errors = []
    for external_id, message in problems.items():
        for file, record, id_field in locations.get(external_id) or [
            (display_name(path), None, ID_FIELD.get(format))
        ]:
            named = id_field if field is _ID else field
            errors.append(FormatError(file, record, named, message))
    return errors


def _declarations(format: str, path: Any):
    if format.startswith(("webanno-tsv", "uima-xmi")):
        yield from _inception_declarations(format, path)
    elif _is_dir(path):
        # The folders (corefi, brat) or files (scico, chemu) the reader was given.
        for input in folder_inputs(format, folder=Path(path), name=display_name(path))[0]:
            if format == "corefi":
                for file in sorted(input.glob("*.json")):
                    yield from _corefi_file(file)
            elif format == "brat":
                for txt in sorted(input.glob("*.txt")):
                    yield txt.stem, (txt.name, None, None)
            else:
                yield from _declarations(format, input)
    elif format == "corefud":
        yield from _newdoc_ids(path)
    elif format in ("scico", "chemu"):
        yield from _lines(path, ID_FIELD[format])
    elif format == "corefi":
        yield from _corefi_file(path)
    elif format == "brat":
        stem = Path(path).stem
        yield stem, (f"{stem}.txt", None, None)


def _newdoc_ids(path: Any):
    # A CorefUD topic is a "# newdoc id = X" document (line numbers as the reader counts).
    name = display_name(path)
    if hasattr(path, "read"):
        lines = path.read().split("\n")
        path.seek(0)
    else:
        lines = Path(path).read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines, start=1):
        if line.startswith("# newdoc") and "id =" in line:
            yield line.split("id =", 1)[1].strip(), (name, number, None)


def _inception_declarations(format: str, path: Any):
    # A topic is a .tsv/.xmi file (its stem), or with the -folders formats a folder (its name).
    pattern = "*.tsv" if format.startswith("webanno") else "*.xmi"
    files = sorted(Path(path).rglob(pattern)) if _is_dir(path) else [Path(display_name(path))]
    for file in files:
        by_folder = format.endswith("-folders") and _is_dir(path)
        topic = file.parent.name if by_folder else file.stem
        yield topic, (file.name, None, None)


def _is_dir(path: Any) -> bool:
    return isinstance(path, (str, os.PathLike)) and Path(path).is_dir()


def _lines(path: Any, field: str):
    file = display_name(path)
    for number, line in enumerate(_text(path).splitlines(), start=1):
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and obj.get(field) is not None:
            yield str(obj[field]), (file, number, field)


def _corefi_file(path: Any):
    try:
        obj = json.loads(_text(path))
    except ValueError:
        return
    file = display_name(path)
    if isinstance(obj, dict) and obj.get("id") is not None:
        yield str(obj["id"]), (file, None, "id")
    else:
        yield Path(file).stem, (file, None, None)


def _text(path: Any) -> str:
    if isinstance(path, (str, os.PathLike)):
        return Path(path).read_text(encoding="utf-8")
    path.seek(0)
    return path.read()
