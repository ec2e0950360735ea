"""A corpus: documents with their mentions, imported at scale and encoded for retrieval, apart
from any project's topics until they are put into one (docs/corpus.md)."""
