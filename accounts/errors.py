"""Accounts' refusals: DomainErrors, which accounts/apps.py registers with their statuses
(foundation.api.errors maps every registered refusal to HTTP in one place)."""

from __future__ import annotations

from annotation.domain.errors import DomainError


class UserRefused(DomainError):
    """A user the admin creates or changes is refused (a weak password, a taken username)."""

    code = "user_refused"


class InvalidCredentials(DomainError):
    code = "invalid_credentials"

    def __init__(self) -> None:
        super().__init__("Wrong username or password.")
