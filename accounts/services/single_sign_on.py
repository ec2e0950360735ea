"""Accounts of people who sign in through the OpenID Connect provider (accounts/oidc.py).

corefapp has one account-level role: `admin` (manages projects, users, assignments; the
`is_staff` flag). Every other account is an annotator who works on the topics assigned to it
(annotator or adjudicator is said per topic, by the assignment). The provider's groups claim
(OIDC_GROUPS_CLAIM) maps to these roles through OIDC_ROLE_MAPPING:

- The first sign-in creates the account, with the role its groups give. Without a mapped
  group it has no role: it is not an admin and sees nothing until an admin assigns it topics.
- Every later sign-in sets the role from the claim again, so the provider stays the one place
  where admin rights are granted or removed (docs/single-sign-on.md).
- Superusers made with `createsuperuser` are never changed: a provider that lost a group
  cannot lock the instance's own administrator out.
"""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from foundation import broadcast
from foundation.side_effects import after_commit

ADMIN = "admin"
ANNOTATOR = "annotator"
ROLES = (ADMIN, ANNOTATOR)
USERNAME_LENGTH = 150


def _username_base(claims: dict, username_claim: str) -> str:
    """The provider's user name made into a Django one (letters, digits and @ . + - _)."""
    raw = claims.get(username_claim) or (claims.get("email") or "").split("@")[0]
    raw = raw or claims.get("sub") or "user"
    return re.sub(r"[^\w.@+-]", "-", str(raw))[: USERNAME_LENGTH - 4] or "user"


def sso_user_create(*, claims: dict, roles: set[str], username_claim: str):
    """A new account for the claims (no usable password: it signs in through the provider).
    A user name taken by another account gets a number: alice, alice-2, ..."""
    User = get_user_model()
    base = _username_base(claims, username_claim)
    for number in range(1, 1000):
        username = base if number == 1 else f"{base}-{number}"
        if User.objects.filter(username=username).exists():
            continue
        try:
            with transaction.atomic():
                user = User.objects.create_user(
                    username=username, email=claims.get("email") or "", is_staff=ADMIN in roles
                )
        except IntegrityError:  # taken between the check and the insert
            continue
        return user
    raise IntegrityError(f"no free user name for {base!r}")


@transaction.atomic
def sso_roles_update(*, user, roles: set[str]):
    """The role the provider gives now; open sockets check their access again if it changed."""
    if user.is_superuser:
        return user
    is_admin = ADMIN in roles
    if user.is_staff != is_admin:
        user.is_staff = is_admin
        user.save(update_fields=["is_staff"])
        after_commit(broadcast.access_changed, user.pk)
    return user
