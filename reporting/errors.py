"""The reports' refusals. They extend the core's DomainError and so get its status (422, a
rule of the request: annotation/api/refusals.py) without registering one of their own."""

from __future__ import annotations

from annotation.domain.errors import DomainError


class DiagnosisRefused(DomainError):
    """A topic cannot be diagnosed as asked: no gold, no such annotator, too few sides."""
