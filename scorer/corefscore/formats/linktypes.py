"""The names files give the ChEMU-Ref relation types, and ours (``corpus.LINK_TYPES``)."""

from __future__ import annotations

from corefscore.corpus import LINK_TYPES

# The spelling of the ChEMU-Ref release (jsonlines keys and brat relation names).
CHEMU_NAMES = {
    "COREFERENCE": "Coreference",
    "TRANSFORMED": "Transformed",
    "REACTION_ASSOCIATED": "Reaction-associated",
    "WORK_UP": "Work-up",
    "CONTAINED": "Contained",
}
assert tuple(CHEMU_NAMES) == LINK_TYPES


def link_type(name: str) -> str | None:
    """``Reaction-associated``, ``reaction_associated``, ``REACTION-ASSOCIATED``... ->
    ``REACTION_ASSOCIATED``; a name that is none of the five -> None."""
    normalised = name.strip().upper().replace("-", "_").replace(" ", "_")
    return normalised if normalised in CHEMU_NAMES else None
