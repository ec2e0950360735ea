"""Default models the application trains on first start when they are missing."""

from __future__ import annotations


def default_models_ensure() -> list[str]:
    return []
