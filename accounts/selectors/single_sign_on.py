"""What the sign-in page shows of single sign-on, and the roles a provider's claims map to
(accounts/oidc.py; accounts/services/single_sign_on.py writes them)."""

from __future__ import annotations

from django.conf import settings


def single_sign_on() -> dict | None:
    """The provider's name and the address of its button, or None when none is configured."""
    if not settings.OIDC_RP_CLIENT_ID:
        return None
    return {"name": settings.OIDC_PROVIDER_NAME, "url": "/oidc/authenticate/"}


def roles_from_claims(claims: dict, *, groups_claim: str, mapping: dict[str, str]) -> set[str]:
    """The roles the claims' groups map to. A claim holding one string counts as one group."""
    groups = claims.get(groups_claim) or []
    if isinstance(groups, str):
        groups = [groups]
    return {mapping[group] for group in groups if isinstance(group, str) and group in mapping}
