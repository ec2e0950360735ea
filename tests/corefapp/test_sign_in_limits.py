"""Sign-in limits under concurrency: guesses sent at once cannot pass the limit, and a flood
of anonymous sign-ins on a real Daphne does not delay a signed-in user by a second.
Real Redis counters, real PostgreSQL, real PBKDF2 in the Daphne test."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.e2e.server import start_daphne
from tests.factories import UserFactory
from tests.workers import LOGS

pytestmark = pytest.mark.django_db(transaction=True)

GUESSES = 60


def test_guesses_sent_at_once_check_no_more_passwords_than_the_limit(services):
    cache.clear()
    UserFactory(username="victim")
    start = threading.Barrier(GUESSES)
    answers: list[int] = []

    def guess(n: int) -> None:
        client = APIClient()
        start.wait()
        try:
            answers.append(
                client.post(
                    "/api/auth/token/",
                    {"username": "victim", "password": f"guess{n}"},
                    format="json",
                ).status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(GUESSES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)

    # 400: a password was checked and was wrong; 429: refused before any check.
    assert sorted(answers) == [400] * 20 + [429] * (GUESSES - 20)


def _post(url: str, body: dict) -> int:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def _timed_get(url: str, token: str) -> float:
    request = urllib.request.Request(url, headers={"Authorization": f"Token {token}"})
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=120) as response:
        assert response.status == 200
    return time.monotonic() - started


@pytest.mark.integration
def test_a_flood_of_anonymous_sign_ins_delays_a_signed_in_user_by_under_a_second(
    services, monkeypatch
):
    # Daphne's own settings: production password hashing (PBKDF2) for unknown usernames too,
    # and limits that let the whole flood reach the password check.
    monkeypatch.setenv("LOGIN_ADDRESS_THROTTLE_RATE", "100000/min")
    user = UserFactory()
    token = Token.objects.create(user=user).key
    daphne = start_daphne(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=services.redis_url,
        log_dir=LOGS,
        secret_key=settings.SECRET_KEY,
    )
    try:
        me = f"{daphne.url}/api/me/"
        _timed_get(me, token)  # warm
        quiet = [_timed_get(me, token) for _ in range(3)]
        flood = ThreadPoolExecutor(max_workers=150)
        answers = [
            flood.submit(
                _post,
                f"{daphne.url}/api/auth/token/",
                {"username": f"flood{n}", "password": "guess"},
            )
            for n in range(150)
        ]
        time.sleep(1.0)  # the flood is hashing
        during = []
        for _ in range(5):
            during.append(_timed_get(me, token))
            time.sleep(0.3)
        codes = [answer.result(timeout=180) for answer in answers]
        flood.shutdown()
    finally:
        daphne.stop()

    assert max(during) < 1.0, (quiet, during)
    assert set(codes) <= {400, 503}, sorted(set(codes))  # checked, or told to retry: no 500
