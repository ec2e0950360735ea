"""Accounts through the admin API: Django's username and password rules apply, and a new
password signs the user out everywhere (tokens and sessions)."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import PASSWORD, AdminFactory, UserFactory

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "kettle-orbit-41"


def create_user(admin_client, username, password=GOOD_PASSWORD):
    return admin_client.post(
        "/api/users/", {"username": username, "password": password}, format="json"
    )


@pytest.mark.parametrize(
    "password",
    ["abcd", "short-pw1", "password123", "1234567890123", "newbie-newbie"],
    ids=["4 characters", "9 characters", "common", "all digits", "like the username"],
)
def test_a_weak_password_is_refused_with_the_rule_it_breaks(admin_client, password):
    response = create_user(admin_client, "newbie-newbie", password)

    assert response.status_code == 422
    assert response.json()["error"] == "user_refused"
    assert response.json()["message"]
    assert not get_user_model().objects.filter(username="newbie-newbie").exists()


def test_a_strong_password_is_accepted(admin_client):
    assert create_user(admin_client, "newbie").status_code == 201


@pytest.mark.parametrize("username", ["../../etc", "../x", "a/b", "a b", "..\\x", ""])
def test_a_username_outside_djangos_rule_is_refused(admin_client, username):
    response = create_user(admin_client, username)

    assert response.status_code in (400, 422)
    assert "error" in response.json()
    assert not get_user_model().objects.filter(username=username).exists()


def test_a_password_reset_revokes_the_users_api_tokens(admin_client):
    cache.clear()
    user = UserFactory(username="scripted")
    token = APIClient().post(
        "/api/auth/token/", {"username": "scripted", "password": PASSWORD}, format="json"
    )
    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    assert script.get("/api/me/").status_code == 200

    reset = admin_client.patch(f"/api/users/{user.pk}/", {"password": GOOD_PASSWORD}, format="json")

    assert reset.status_code == 200
    refused = script.get("/api/me/")
    assert refused.status_code == 403
    assert refused.json()["message"] == "Invalid token."
    assert not Token.objects.filter(user=user).exists()


def test_a_password_reset_signs_the_users_sessions_out(admin_client):
    user = UserFactory(username="browsing")
    browser = APIClient()
    assert browser.login(username="browsing", password=PASSWORD)
    assert browser.get("/api/me/").status_code == 200

    admin_client.patch(f"/api/users/{user.pk}/", {"password": GOOD_PASSWORD}, format="json")

    assert browser.get("/api/me/").status_code == 403


def test_a_password_set_outside_the_api_revokes_tokens_too():
    user = UserFactory()
    Token.objects.create(user=user)

    user.set_password(GOOD_PASSWORD)
    user.save()

    assert not Token.objects.filter(user=user).exists()


def test_an_admin_who_changes_their_own_password_stays_signed_in():
    admin = AdminFactory(username="boss")
    browser = APIClient()
    assert browser.login(username="boss", password=PASSWORD)

    changed = browser.patch(f"/api/users/{admin.pk}/", {"password": GOOD_PASSWORD}, format="json")

    assert changed.status_code == 200
    assert browser.get("/api/users/").status_code == 200
    assert APIClient().login(username="boss", password=GOOD_PASSWORD)


def test_a_weak_password_reset_is_refused_and_changes_nothing(admin_client):
    user = UserFactory()
    Token.objects.create(user=user)

    response = admin_client.patch(f"/api/users/{user.pk}/", {"password": "demo"}, format="json")

    assert response.status_code == 422
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    assert Token.objects.filter(user=user).exists()


def test_the_demo_accounts_alone_keep_the_short_demo_password(admin_client):
    from fixtures.demo.load import demo_users_ensure

    demo_users_ensure(password="demo")

    assert get_user_model().objects.get(username="annotator1").check_password("demo")
    assert create_user(admin_client, "annotator9", "demo").status_code == 422
