"""Frozen-encoder vectors kept on disk, one file per document, keyed by what they depend on.

The mention tagger's encoder is frozen, so a document's vectors depend only on its tokens and
on the encoder. A key is the SHA-256 of the encoder's identity (its resolved path, its
configuration, the layers and length used) and of the tokens: a changed document gets a new
key and is encoded again, an unchanged one is read back, and a different encoder never reads
another's vectors. Files are written to a temporary name and renamed, so a reader never sees
half a file; a file that cannot be read is treated as missing (and is written again).
Pure: no Django; the folder is passed in (the app uses <MODELS_DIR>/encoder-cache).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from modelserve.arrays import FloatArray
from modelserve.backends.mention_features import WordEncoder
from modelserve.caches import ENCODER_CACHE

# Its default place in the models folder; a backup leaves it out (modelserve/caches.py).
FOLDER = ENCODER_CACHE


def encoder_identity(encoder: WordEncoder) -> str:
    """What an encoder's vectors depend on besides the tokens."""
    loaded = encoder.encoder
    config = loaded.model.config.to_json_string(use_diff=False)
    return json.dumps(
        [loaded.path, config, encoder.middle, encoder.dim, loaded.max_length], sort_keys=True
    )


class VectorCache:
    def __init__(self, folder: str | Path, encoder: WordEncoder) -> None:
        self.folder = Path(folder)
        self.identity = hashlib.sha256(encoder_identity(encoder).encode()).hexdigest()

    def path(self, tokens: list[str]) -> Path:
        digest = hashlib.sha256(self.identity.encode())
        digest.update(json.dumps(tokens, ensure_ascii=False).encode())
        key = digest.hexdigest()
        return self.folder / key[:2] / f"{key}.npy"

    def get(self, tokens: list[str]) -> FloatArray | None:
        path = self.path(tokens)
        try:
            vectors: FloatArray = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            return None
        return vectors if len(vectors) == len(tokens) else None

    def put(self, tokens: list[str], vectors: FloatArray) -> None:
        path = self.path(tokens)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                np.save(stream, vectors, allow_pickle=False)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
