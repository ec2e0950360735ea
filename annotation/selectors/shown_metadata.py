"""What of an imported file's metadata the workspaces show.

A reader keeps every field of an imported file that the model does not hold in the topic's
metadata (and CoRefi's per-token fields in the document's), so that an export gives the file
back. Some of those fields are answers: CoRefi's `goldMentions` (each mention's gold cluster
and the messages for right and wrong choices), SciCo's flattened fields (cluster ids per
mention), and the unknown fields any format keeps as they are. A practice topic's gold must
never reach an annotator before they submit, so the workspaces (annotation, validation,
adjudication) show none of the topic's metadata, for every reader: nothing in the interface
reads it, and the exports, which are for admins, still carry it. Documents keep what the
interface shows (title, venue, year, link, paragraph) without CoRefi's per-token extras.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

TOKEN_EXTRAS = "token_extra"  # scorer/corefscore/formats/corefi_parser.py


def topic_metadata_shown(metadata: dict[str, Any] | None) -> dict[str, Any]:
    """Always empty: every key of a topic's metadata is one import format's record of its
    file (docs/onboarding.md, "Gold"); the field stays in the payload for its clients."""
    return {}


def document_metadata_shown(metadata: dict[str, Any] | None) -> dict[str, Any]:
    return {key: value for key, value in (metadata or {}).items() if key != TOKEN_EXTRAS}


def documents_shown(documents: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Document rows (`values()` dicts with a `metadata` key) as a workspace shows them."""
    return [{**d, "metadata": document_metadata_shown(d.get("metadata"))} for d in documents]
