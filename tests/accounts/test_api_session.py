"""GET /api/session/: whether anyone is signed in, answered without a failure status."""

import pytest
from rest_framework.test import APIClient

from tests.factories import AdminFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_signed_out_browser_gets_200_and_not_authenticated():
    response = APIClient().get("/api/session/")

    assert response.status_code == 200
    assert response.json() == {"authenticated": False, "user": None, "single_sign_on": None}


def test_a_signed_in_annotator_gets_who_they_are():
    user = UserFactory(username="ann")
    client = APIClient()
    client.force_login(user)

    body = client.get("/api/session/").json()

    assert body == {
        "authenticated": True,
        "user": {"id": user.pk, "username": "ann", "is_admin": False},
        "single_sign_on": None,
    }


def test_an_admin_is_said_to_be_one():
    client = APIClient()
    client.force_login(AdminFactory())

    assert client.get("/api/session/").json()["user"]["is_admin"] is True
