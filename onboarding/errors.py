"""Onboarding's refusals (DomainErrors: annotation/api/errors.py maps them to HTTP)."""

from __future__ import annotations

from annotation.domain.errors import DomainError


class WrongDecision(DomainError):
    """A guided practice topic refuses a decision that gold contradicts, with its message."""

    code = "practice_wrong"


class PracticeRefused(DomainError):
    code = "practice_refused"
