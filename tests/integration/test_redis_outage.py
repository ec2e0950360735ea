"""Redis killed or hung under a real Daphne: browser users still sign in and save, a suggestion
request is refused at once, /healthz answers quickly. PostgreSQL is the session's test
database; Redis is this test's own, so stopping it disturbs nobody else."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import tempfile
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from annotation.models import Annotation
from corefapp.runtime.defaults import var_dir
from corefapp.runtime.redis_server import EmbeddedRedis
from modelserve.models import SuggestionRun
from tests.e2e.server import start_daphne
from tests.factories import PASSWORD, UserFactory, assign, make_topic, mention_ids
from tests.ports import free_port
from tests.workers import LOGS

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_server():
    root = Path(tempfile.mkdtemp(prefix="outage-", dir=var_dir() / "test"))
    server = EmbeddedRedis(root / "redis", port=free_port(), password=secrets.token_urlsafe(24))
    server.start()
    yield server
    if server.process is not None and server.process.poll() is None:
        os.kill(server.process.pid, signal.SIGCONT)
        server.process.kill()
        server.process.wait(10)
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def daphne(services, redis_server):
    server = start_daphne(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=redis_server.url(),
        log_dir=LOGS,
        secret_key=settings.SECRET_KEY,
    )
    yield server
    server.stop()


class Browser:
    """Session cookie and CSRF token, as the frontend sends them."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def request(self, method: str, path: str, body=None) -> tuple[int, dict, float]:
        """(status, JSON answer, seconds it took)."""
        csrf = next((c.value for c in self.cookies if c.name == "csrftoken"), "")
        request = urllib.request.Request(
            self.base_url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-CSRFToken": csrf},
        )
        started = time.monotonic()
        try:
            with self.opener.open(request, timeout=30) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        elapsed = time.monotonic() - started
        try:
            return status, json.loads(raw or b"null"), elapsed
        except ValueError:
            return status, {"raw": raw.decode(errors="replace")[:300]}, elapsed

    def sign_in(self, username: str) -> tuple[int, float]:
        self.request("GET", "/api/auth/csrf/")
        status, _, elapsed = self.request(
            "POST", "/api/auth/login/", {"username": username, "password": PASSWORD}
        )
        return status, elapsed


@pytest.fixture
def annotator(settings):
    # Daphne checks passwords with Django's default hashers, not the tests' fast MD5 one.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    user = UserFactory()
    topic = make_topic()
    _, annotation = assign(topic, user)
    return user, topic, annotation


def wait_for_log(daphne, text: str, timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while text not in daphne.log_tail(400):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def browser_work_without_redis(daphne, user, topic, annotation) -> dict:
    """Sign in, save an edit, ask for suggestions; what each answered and how long it took."""
    browser = Browser(daphne.url)
    signed_in, sign_in_s = browser.sign_in(user.username)
    m = mention_ids(topic)
    saved, applied, save_s = browser.request(
        "POST",
        f"/api/annotations/{annotation.pk}/operations/",
        {
            "operation": {"op": "assign", "mention": m[0], "cluster": None},
            "expected_version": 0,
            "client_id": "outage",
        },
    )
    suggest, refusal, suggest_s = browser.request(
        "POST", f"/api/topics/{topic.pk}/suggestion-runs/", {}
    )
    return {
        "sign_in": (signed_in, sign_in_s),
        "save": (saved, save_s, applied),
        "suggest": (suggest, suggest_s, refusal),
    }


def assert_work_went_on(outcome: dict, annotation, daphne) -> None:
    log = daphne.log_tail(200)
    assert outcome["sign_in"][0] == 200, (outcome, log)
    status, _, applied = outcome["save"]
    assert status == 200, (outcome, log)
    assert applied["version"] == 1, (outcome, log)
    assert Annotation.objects.get(pk=annotation.pk).version == 1
    status, seconds, refusal = outcome["suggest"]
    assert status == 503, (outcome, log)
    assert refusal["error"] == "model_queue_unavailable", (outcome, log)
    assert seconds < 2, outcome
    assert not SuggestionRun.objects.exists()


def test_with_redis_killed_a_browser_user_signs_in_and_saves_and_suggestions_answer_503(
    daphne, redis_server, annotator
):
    user, topic, annotation = annotator
    redis_server.process.kill()
    redis_server.process.wait(10)

    outcome = browser_work_without_redis(daphne, user, topic, annotation)

    assert_work_went_on(outcome, annotation, daphne)
    assert wait_for_log(daphne, "broadcast to annotation."), daphne.log_tail()  # logged, not raised
    print(f"\nRedis killed: {outcome_timings(outcome)}")


def test_with_redis_hung_requests_and_healthz_answer_within_two_seconds(
    daphne, redis_server, annotator
):
    user, topic, annotation = annotator
    os.kill(redis_server.process.pid, signal.SIGSTOP)  # its sockets stay open: reads just wait

    outcome = browser_work_without_redis(daphne, user, topic, annotation)
    health, body, health_s = Browser(daphne.url).request("GET", "/healthz")

    assert_work_went_on(outcome, annotation, daphne)
    assert outcome["save"][1] < 2, outcome
    # Signing in waits REDIS_TIMEOUT once (the throttle's counters), plus the password hash
    # itself (PBKDF2, about a second on two busy cores); before, it waited ~20 s.
    assert outcome["sign_in"][1] < 5, outcome
    assert health == 503, (health, body, health_s)
    assert health_s < 2.5, (health, body, health_s)
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["redis"]["ok"] is False
    print(f"\nRedis hung: {outcome_timings(outcome)}, healthz {health_s:.2f} s")


def outcome_timings(outcome: dict) -> str:
    return (
        f"sign-in {outcome['sign_in'][1]:.2f} s, save {outcome['save'][1]:.2f} s, "
        f"suggestion 503 in {outcome['suggest'][1]:.2f} s"
    )
