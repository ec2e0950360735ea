"""The sign-in page waits and signs in again when the server's sign-in queue is full, and shows
the annotator that it is retrying.

The queue is full for real: a Daphne of its own with one place in its sign-in queue
(SIGN_IN_QUEUE=1, as an operator would set it), and a sign-in that holds that place. Its last
step, Django's update of the user's last_login, waits while this test holds that user's row
locked (SELECT ... FOR UPDATE on a connection of its own). The page's sign-in is then answered
503 with Retry-After; the test lets the row go once the page says it is retrying, and the
page's next try signs in.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection
from playwright.sync_api import expect

from corefapp.sign_in_pool import RETRY_AFTER_SECONDS
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.server import start_daphne
from tests.factories import PASSWORD, UserFactory


@pytest.fixture(scope="module")
def one_place_server(django_db_setup, services):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SIGN_IN_QUEUE", "1")
        patch.setenv("SIGN_IN_HASHING_THREADS", "1")
        server = start_daphne(
            database_url=services.postgres.url(connection.settings_dict["NAME"]),
            redis_url=services.redis_url,
            log_dir=ARTIFACTS / "logs",
            secret_key=settings.SECRET_KEY,
        )
    yield server
    server.stop()


def user_with_a_server_password(username: str):
    # The server checks passwords with the production hashers, not the tests' fast one.
    user = UserFactory(username=username)
    hasher = PBKDF2PasswordHasher()
    user.password = hasher.encode(PASSWORD, f"{username}-salt-1234", iterations=1000)
    user.save()
    return user


def sign_in_over_http(url: str, username: str) -> int:
    request = urllib.request.Request(
        f"{url}/api/auth/login/",
        json.dumps({"username": username, "password": PASSWORD}).encode(),
        {"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def wait_for_a_backend_waiting_on_a_lock(database_url: str, timeout: float = 30) -> None:
    """Until a connection of the server waits for a row lock: the holding sign-in is in the
    queue's one place, at its last step."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(database_url, autocommit=True) as watcher:
        while time.monotonic() < deadline:
            waiting = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock'"
            ).fetchone()
            if waiting and waiting[0]:
                return
            time.sleep(0.05)
    raise AssertionError(f"no sign-in waited on the locked row within {timeout} s")


def test_the_sign_in_page_waits_as_told_and_signs_in_when_the_queue_is_full(
    browser, one_place_server
):
    holder = user_with_a_server_password("holder")
    user_with_a_server_password("ann")
    database_url = one_place_server.env["DATABASE_URL"]
    context = browser.new_context(base_url=one_place_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    answers = []
    page.on(
        "response",
        lambda r: (
            answers.append((r.status, r.headers.get("retry-after")))
            if r.url.endswith("/api/auth/login/")
            else None
        ),
    )
    page.goto("/login")
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill(PASSWORD)

    lock = psycopg.connect(database_url)
    held: list[int] = []
    try:
        lock.execute("SELECT 1 FROM auth_user WHERE id = %s FOR UPDATE", [holder.pk])
        holding = threading.Thread(
            target=lambda: held.append(sign_in_over_http(one_place_server.url, "holder"))
        )
        holding.start()
        wait_for_a_backend_waiting_on_a_lock(database_url)

        page.get_by_role("button", name="Sign in").click()
        status = page.get_by_role("status")
        expect(status).to_contain_text(f"Trying again in {RETRY_AFTER_SECONDS} s (try 2 of 6)")
        expect(status).to_contain_text("Many people are signing in at once.")
        expect(page.get_by_role("alert")).to_have_count(0)  # not a failure: a wait
    finally:
        lock.rollback()  # the row goes: the holding sign-in ends, and frees its place
        lock.close()
    holding.join(60)

    # The page's next try, Retry-After seconds later, signs in.
    expect(page.get_by_role("heading", name="My topics")).to_be_visible(
        timeout=(RETRY_AFTER_SECONDS + 15) * 1000
    )
    assert held == [200]
    assert answers == [(503, str(RETRY_AFTER_SECONDS)), (200, None)]
    expect(page.get_by_role("status")).to_have_count(0)
    context.close()
