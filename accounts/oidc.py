"""OpenID Connect sign-in beside local accounts, through mozilla-django-oidc.

Configured by environment variables (corefapp/settings.py, docs/single-sign-on.md). Three
things are added to the library here:

- The provider's endpoints come from its discovery document ({OIDC_ISSUER}/.well-known/
  openid-configuration), fetched once per process at the first sign-in that needs them, never
  at start-up: a provider that is down must not stop the server or local sign-ins. Endpoints
  set one by one (OIDC_*_ENDPOINT) win over discovery.
- The backend reads nothing when it is built: Django builds every backend for each local
  password check and for every request of a signed-in session (`get_user`).
- Accounts are created and their role set from the groups claim
  (accounts/services/single_sign_on.py).
"""

from __future__ import annotations

import functools
import logging

import requests
from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpResponseRedirect
from django.views import View
from mozilla_django_oidc.auth import OIDCAuthenticationBackend
from mozilla_django_oidc.utils import import_from_settings
from mozilla_django_oidc.views import OIDCAuthenticationRequestView

from accounts.selectors.single_sign_on import roles_from_claims
from accounts.services.single_sign_on import sso_roles_update, sso_user_create

logger = logging.getLogger(__name__)

# setting -> key of the discovery document
DISCOVERED = {
    "OIDC_OP_AUTHORIZATION_ENDPOINT": "authorization_endpoint",
    "OIDC_OP_TOKEN_ENDPOINT": "token_endpoint",
    "OIDC_OP_USER_ENDPOINT": "userinfo_endpoint",
    "OIDC_OP_JWKS_ENDPOINT": "jwks_uri",
}


class ProviderUnavailable(RuntimeError):
    pass


def enabled() -> bool:
    return bool(getattr(settings, "OIDC_RP_CLIENT_ID", ""))


@functools.lru_cache(maxsize=4)
def _discovery(issuer: str) -> dict:
    url = issuer.rstrip("/") + "/.well-known/openid-configuration"
    try:
        answer = requests.get(url, timeout=settings.OIDC_TIMEOUT)
        answer.raise_for_status()
        document = answer.json()
    except (requests.RequestException, ValueError) as error:
        raise ProviderUnavailable(f"the provider's discovery document {url}: {error}") from None
    if not isinstance(document, dict):
        raise ProviderUnavailable(f"the provider's discovery document {url} is not an object")
    return document


def oidc_setting(attr: str, *default):
    """A mozilla-django-oidc setting; an endpoint left unset comes from discovery."""
    value = getattr(settings, attr, None)
    if attr in DISCOVERED and not value and settings.OIDC_ISSUER:
        try:
            return _discovery(settings.OIDC_ISSUER)[DISCOVERED[attr]]
        except KeyError:
            raise ProviderUnavailable(f"the discovery document has no {DISCOVERED[attr]}") from None
    return import_from_settings(attr, *default)


class SignInView(OIDCAuthenticationRequestView):
    """GET /oidc/authenticate/?next=...: on to the provider's sign-in page."""

    get_settings = staticmethod(oidc_setting)

    def __init__(self, *args, **kwargs):
        View.__init__(self, *args, **kwargs)  # the endpoint is looked up per request, below

    def get(self, request):
        try:
            self.OIDC_OP_AUTH_ENDPOINT = oidc_setting("OIDC_OP_AUTHORIZATION_ENDPOINT")
        except ProviderUnavailable as error:
            logger.warning("single sign-on unavailable: %s", error)
            return HttpResponseRedirect(f"{settings.LOGIN_URL}?sso=unavailable")
        self.OIDC_RP_CLIENT_ID = oidc_setting("OIDC_RP_CLIENT_ID")
        return super().get(request)


class RoleMappingBackend(OIDCAuthenticationBackend):
    """Signs in the provider's users: matched by email, created at their first sign-in, their
    role taken from the groups claim at every sign-in."""

    get_settings = staticmethod(oidc_setting)

    def __init__(self, *args, **kwargs):
        self.UserModel = get_user_model()

    def authenticate(self, request, **kwargs):
        if request is None or not (request.GET.get("code") and request.GET.get("state")):
            return None  # a local password check, or not the provider's callback
        try:
            self.OIDC_OP_TOKEN_ENDPOINT = oidc_setting("OIDC_OP_TOKEN_ENDPOINT")
            self.OIDC_OP_USER_ENDPOINT = oidc_setting("OIDC_OP_USER_ENDPOINT")
            self.OIDC_OP_JWKS_ENDPOINT = oidc_setting("OIDC_OP_JWKS_ENDPOINT", None)
        except ProviderUnavailable as error:
            logger.warning("single sign-on unavailable: %s", error)
            return None
        self.OIDC_RP_CLIENT_ID = oidc_setting("OIDC_RP_CLIENT_ID")
        self.OIDC_RP_CLIENT_SECRET = oidc_setting("OIDC_RP_CLIENT_SECRET")
        self.OIDC_RP_SIGN_ALGO = oidc_setting("OIDC_RP_SIGN_ALGO", "RS256")
        self.OIDC_RP_IDP_SIGN_KEY = oidc_setting("OIDC_RP_IDP_SIGN_KEY", None)
        return super().authenticate(request, **kwargs)

    def verify_claims(self, claims):
        # An account is matched by its email: without one there is nothing to match on.
        return bool(claims.get("email")) and bool(claims.get("sub"))

    def _roles(self, claims) -> set[str]:
        return roles_from_claims(
            claims, groups_claim=settings.OIDC_GROUPS_CLAIM, mapping=settings.OIDC_ROLE_MAPPING
        )

    def create_user(self, claims):
        return sso_user_create(
            claims=claims, roles=self._roles(claims), username_claim=settings.OIDC_USERNAME_CLAIM
        )

    def update_user(self, user, claims):
        return sso_roles_update(user=user, roles=self._roles(claims))
