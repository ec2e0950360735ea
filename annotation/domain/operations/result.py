"""What planning an operation yields."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..effects import Effect

NewId = Callable[[str], int]
"""`new_id("cluster")` / `new_id("mention")`: a fresh id, never used before in the store."""


@dataclass
class OperationResult:
    effects: list[Effect]
    warnings: list[str] = field(default_factory=list)
    created: dict[str, int] = field(default_factory=dict)  # "cluster" / "mention" -> new id
