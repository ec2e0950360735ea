"""Single sign-on without a browser: the role mapping, account creation and updates, what the
sign-in page is told, and a provider that is down (tests/e2e/test_oidc_sign_in.py signs in
through a real provider)."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.test import RequestFactory
from rest_framework.test import APIClient

from accounts.oidc import RoleMappingBackend, SignInView, _discovery
from accounts.selectors.single_sign_on import roles_from_claims
from accounts.services.single_sign_on import sso_roles_update, sso_user_create
from tests.factories import UserFactory
from tests.ports import free_port

MAPPING = {"lab-admins": "admin", "lab": "annotator"}


@pytest.mark.parametrize(
    ("groups", "roles"),
    [
        (["lab-admins", "other"], {"admin"}),
        (["lab"], {"annotator"}),
        ("lab-admins", {"admin"}),  # one group as a string
        ([], set()),
        (None, set()),
        (["LAB-ADMINS"], set()),  # group names are compared exactly
    ],
)
def test_roles_come_from_the_mapped_groups_of_the_claim(groups, roles):
    claims = {"sub": "1", "groups": groups}

    assert roles_from_claims(claims, groups_claim="groups", mapping=MAPPING) == roles


def test_the_groups_claim_name_is_configurable():
    claims = {"sub": "1", "roles": ["lab-admins"], "groups": []}

    assert roles_from_claims(claims, groups_claim="roles", mapping=MAPPING) == {"admin"}


@pytest.mark.django_db
def test_a_first_sign_in_creates_the_account_with_the_role_of_its_groups_or_none():
    admin = sso_user_create(
        claims={"sub": "a", "email": "ann@uni.example", "preferred_username": "ann"},
        roles={"admin"},
        username_claim="preferred_username",
    )
    nobody = sso_user_create(
        claims={"sub": "b", "email": "ben@uni.example", "preferred_username": "ben"},
        roles=set(),
        username_claim="preferred_username",
    )

    assert (admin.username, admin.is_staff, admin.has_usable_password()) == ("ann", True, False)
    assert (nobody.username, nobody.is_staff) == ("ben", False)


@pytest.mark.django_db
def test_a_taken_or_odd_user_name_is_made_free_and_valid():
    UserFactory(username="ann")

    user = sso_user_create(
        claims={"sub": "a", "email": "ann@other.example", "preferred_username": "ann"},
        roles=set(),
        username_claim="preferred_username",
    )
    odd = sso_user_create(
        claims={"sub": "c", "email": "c@uni.example", "preferred_username": "Chloé Dupont/x"},
        roles=set(),
        username_claim="preferred_username",
    )

    assert user.username == "ann-2"
    get_user_model().username_validator(odd.username)
    assert odd.username.startswith("Chlo")


@pytest.mark.django_db
def test_a_later_sign_in_sets_the_role_from_the_claim_but_never_demotes_a_superuser():
    user = UserFactory(is_staff=True)
    root = get_user_model().objects.create_superuser("root", "root@uni.example", "a long pass")

    sso_roles_update(user=user, roles=set())
    sso_roles_update(user=root, roles=set())

    user.refresh_from_db()
    root.refresh_from_db()
    assert not user.is_staff
    assert root.is_staff


@pytest.mark.django_db
def test_the_session_tells_the_sign_in_page_about_the_provider_only_when_configured(settings):
    client = APIClient()
    assert client.get("/api/session/").json()["single_sign_on"] is None

    settings.OIDC_RP_CLIENT_ID = "corefapp"
    settings.OIDC_PROVIDER_NAME = "University"

    assert client.get("/api/session/").json()["single_sign_on"] == {
        "name": "University",
        "url": "/oidc/authenticate/",
    }


@pytest.fixture
def provider_down(settings):
    settings.OIDC_RP_CLIENT_ID = "corefapp"
    settings.OIDC_ISSUER = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    settings.OIDC_TIMEOUT = 2.0
    settings.AUTHENTICATION_BACKENDS = [
        "django.contrib.auth.backends.ModelBackend",
        "accounts.oidc.RoleMappingBackend",
    ]
    _discovery.cache_clear()
    yield
    _discovery.cache_clear()


@pytest.mark.django_db
def test_a_provider_that_is_down_sends_the_button_back_to_the_sign_in_page(provider_down):
    request = RequestFactory().get("/oidc/authenticate/")

    answer = SignInView.as_view()(request)

    assert answer.status_code == 302
    assert answer["Location"] == "/login/?sso=unavailable"


@pytest.mark.django_db
def test_local_accounts_sign_in_while_the_provider_is_down(provider_down):
    user = UserFactory(username="local")
    user.set_password("a local password")
    user.save()
    request = RequestFactory().post("/api/auth/login/")

    assert authenticate(request, username="local", password="a local password") == user
    # The backend is built for every request of a session: it must not ask the provider.
    assert RoleMappingBackend().get_user(user.pk) == user
    assert RoleMappingBackend().authenticate(request, username="local", password="x") is None
