"""Refusals of the dataset release (mapped to HTTP 400 through their base class)."""

from __future__ import annotations

from annotation.domain.errors import InvalidOperation
from annotation.errors import Conflict


class DatasetRefused(InvalidOperation):
    """`field` names what was refused (source, ratios, split, ...)."""

    code = "dataset_refused"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)
        self.message = message


class ReleaseUnderWay(Conflict):
    """A release of the project is already queued or running (409): `job` is that build."""

    code = "release_under_way"
