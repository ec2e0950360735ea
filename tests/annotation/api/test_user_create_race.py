"""A double submit of "create user": both requests pass the "is it taken?" check before
either inserts. One creates the account, the other is told the name is taken (it was a 500,
IntegrityError). Real PostgreSQL, real password hashing (its time is the race's window)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from tests.factories import AdminFactory

pytestmark = pytest.mark.django_db(transaction=True)

SUBMITS = 6


def test_a_double_submit_of_create_user_makes_one_account_and_answers_the_other_in_json(
    settings,
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    admin = AdminFactory()
    start = threading.Barrier(SUBMITS)
    answers = []

    def submit() -> None:
        client = APIClient()
        client.force_authenticate(admin)
        start.wait()
        try:
            answers.append(
                client.post(
                    "/api/users/",
                    {"username": "twice", "password": "kettle-orbit-41"},
                    format="json",
                )
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(SUBMITS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert sorted(a.status_code for a in answers) == [201] + [422] * (SUBMITS - 1)
    refused = [a.json() for a in answers if a.status_code == 422]
    assert all(r["error"] == "user_refused" and "taken" in r["message"] for r in refused)
    assert get_user_model().objects.filter(username="twice").count() == 1
