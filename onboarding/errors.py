"""Onboarding's refusals (DomainErrors: foundation/api/errors.py maps them to HTTP: 422, and
403 for the attempts an annotator has used up)."""

from __future__ import annotations

from annotation.domain.errors import DomainError
from annotation.errors import Forbidden


class WrongDecision(DomainError):
    """A guided practice topic refuses a decision that gold contradicts, with its message."""

    code = "practice_wrong"


class PracticeRefused(DomainError):
    code = "practice_refused"


class AttemptsUsedUp(Forbidden):
    """A scored practice attempt past the project's cap (only an admin can let more in)."""

    code = "practice_attempts_used_up"
