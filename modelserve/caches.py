"""Folders of the models folder (MODELS_DIR) that hold only what is rebuilt on demand.

A backup leaves them out (corefapp/backups/archive.py) and its manifest says which, why and how
each comes back; a restore keeps the instance's own copy. No import: the backup reads this
without loading any model code.
"""

from __future__ import annotations

# The frozen mention encoder's vectors, one file per document (backends/vector_cache.py).
ENCODER_CACHE = "encoder-cache"

_ENCODER_WHY = (
    "the frozen mention encoder's vectors of each document, keyed by the document's words "
    "and the encoder: a cache, nothing else reads them"
)
_ENCODER_REBUILT = (
    "on demand: the next mention-tagger training (make up's, or a project that learns) "
    "encodes every document it finds no vectors for and writes them here again"
)

# folder -> (why it can be left out, how it is rebuilt)
REBUILDABLE: dict[str, tuple[str, str]] = {ENCODER_CACHE: (_ENCODER_WHY, _ENCODER_REBUILT)}
