"""What a packaged default model was trained on, by content hash: one hash per document text,
in `trained_texts.json` beside the model's files. A project topic whose document text has one
of those hashes is flagged ("the default ChEMU model was trained on this text") on the admin
Suggestions and Models pages, and the Models page leaves it out of the scores by default
(modelserve/evaluation_seen.py).

The hash is of the text with all whitespace taken out, so the same snippet imported from
another format, tokenized differently, still matches. Pure: no Django.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

FILE = "trained_texts.json"


def document_hash(tokens: Sequence[str]) -> str:
    text = "".join("".join(tokens).split())
    return hashlib.sha256(text.encode()).hexdigest()


def trained_texts_write(folder: Path, *, model: str, source: str, documents: Iterable) -> Path:
    """Record `documents` (corefscore DocumentData) as what the model in `folder` learnt from;
    `model` names it in the annotator's words ("the default ChEMU model")."""
    hashes = sorted({document_hash(d.tokens) for d in documents})
    path = folder / FILE
    folder.mkdir(parents=True, exist_ok=True)
    payload = {"model": model, "source": source, "documents": hashes}
    path.write_text(json.dumps(payload, indent=0) + "\n")
    return path


def trained_texts_read(folder: Path) -> tuple[str, frozenset[str]] | None:
    """(the model's name, its document hashes), or None when the folder records none."""
    path = folder / FILE
    if not path.is_file():
        return None
    payload = json.loads(path.read_text())
    return str(payload["model"]), frozenset(payload["documents"])
