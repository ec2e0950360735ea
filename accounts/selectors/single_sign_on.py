"""What the sign-in page shows of single sign-on (accounts/oidc.py)."""

from __future__ import annotations

from django.conf import settings


def single_sign_on() -> dict | None:
    """The provider's name and the address of its button, or None when none is configured."""
    if not settings.OIDC_RP_CLIENT_ID:
        return None
    return {"name": settings.OIDC_PROVIDER_NAME, "url": "/oidc/authenticate/"}
