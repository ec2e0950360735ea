"""Onboarding's refusals (DomainErrors: foundation/api/errors.py maps them to HTTP, 422)."""

from __future__ import annotations

from annotation.domain.errors import DomainError


class WrongDecision(DomainError):
    """A guided practice topic refuses a decision that gold contradicts, with its message."""

    code = "practice_wrong"


class PracticeRefused(DomainError):
    code = "practice_refused"
