"""Browser tests: a real Daphne serving the built frontend, real PostgreSQL and Redis, and
headless Chromium driven by Playwright.

Daphne runs once for these tests against pytest-django's test database (`test_corefapp` on the
session's PostgreSQL server). Tests use `transactional_db`, so what they create is committed
and Daphne sees it. Without a built frontend or without Chromium the tests fail and say how to
get them; they are never skipped.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.e2e.server import (
    MissingPrerequisite,
    chromium_path,
    launch_chromium,
    require_frontend,
    sign_in,
    start_daphne,
)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).parent == here:
            item.add_marker(pytest.mark.e2e)


def _prerequisites() -> None:
    try:
        require_frontend()
        chromium_path()
    except MissingPrerequisite as error:
        pytest.fail(str(error), pytrace=False)


# Package scope: Daphne and Playwright stop after the last browser test. Playwright's sync API
# keeps an event loop running in this thread while it is started, which would break later
# tests that call asyncio.run().
@pytest.fixture(scope="package")
def e2e_server(django_db_setup, services):
    _prerequisites()
    from django.conf import settings
    from django.db import connection

    database_url = services.postgres.url(connection.settings_dict["NAME"])
    server = start_daphne(
        database_url=database_url,
        redis_url=services.redis_url,
        log_dir=ARTIFACTS / "logs",
        secret_key=settings.SECRET_KEY,
    )
    yield server
    server.stop()


@pytest.fixture(scope="package")
def browser():
    _prerequisites()
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread; the ORM calls the tests
    # make between browser steps are ordinary blocking calls, so let Django allow them.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = launch_chromium(playwright)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def new_page(browser, e2e_server, request):
    """`new_page(user)`: a signed-in page of a fresh browser context (a new tab: same context)."""
    contexts = []

    def make(user=None, *, context=None):
        if context is None:
            context = browser.new_context(
                viewport={"width": 1440, "height": 900}, base_url=e2e_server.url
            )
            context.set_default_timeout(10_000)
            contexts.append(context)
            if user is not None:
                sign_in(context, e2e_server.url, user)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.in_flight = set()
        page.on("request", lambda r: page.in_flight.add(r))
        page.on("requestfinished", lambda r: page.in_flight.discard(r))
        page.on("requestfailed", lambda r: page.in_flight.discard(r))
        return page

    yield make
    failed = getattr(request.node, "rep_call", None)
    failed = failed is not None and failed.failed
    # A request the page still has in flight (an autosave, a poll) holds row locks in the
    # server while the test database is flushed next: the TRUNCATE and that transaction then
    # deadlock (seen in CI twice). The page's list can miss one: Playwright's request event may
    # reach this process after the test's last line, and the workspace sends requests later on
    # its own (the cursor 400 ms after a move, and keepalive when the page is hidden). So each
    # page leaves for about:blank first (a round trip that delivers the pending events, ends
    # the timers and sends the pagehide request now), its requests are let end (a few ms; at
    # most 5 s), and after the close the server's connections are waited on to be idle.
    for index, context in enumerate(contexts):
        for n, page in enumerate(context.pages):
            if failed:
                _screenshot(page, ARTIFACTS / f"failed-{request.node.name}-{index}-{n}.png")
            # Unsaved edits make the workspace ask before it unloads: leave anyway.
            page.on("dialog", _accept)
            try:
                page.goto("about:blank", timeout=3_000)
            except Exception:  # noqa: BLE001, S112 - a closed or crashed page sends nothing more
                continue
            deadline = time.monotonic() + 5
            while getattr(page, "in_flight", None) and time.monotonic() < deadline:
                page.wait_for_timeout(20)
    for context in contexts:
        context.close()
    _wait_for_idle_server_connections()


def _accept(dialog) -> None:
    try:
        dialog.accept()
    except Exception:  # noqa: BLE001, S110 - the test's own handler answered it already
        pass


def _screenshot(page, path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        page.screenshot(path=str(path))
    except Exception:  # noqa: BLE001, S110 - a closed page has no screenshot to give
        pass


def _wait_for_idle_server_connections(quiet_polls: int = 3, timeout: float = 5.0) -> None:
    """Until no other connection to the test database runs a statement or holds a transaction,
    seen on `quiet_polls` polls in a row 10 ms apart: what the browser sent last (a keepalive
    request the page can no longer report) is through before the flush's TRUNCATE."""
    from django.db import connection

    deadline = time.monotonic() + timeout
    quiet = 0
    with connection.cursor() as cursor:
        while quiet < quiet_polls and time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
                " AND state IS DISTINCT FROM 'idle'"
            )
            busy = cursor.fetchone()[0]
            quiet = quiet + 1 if busy == 0 else 0
            time.sleep(0.01)


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(autouse=True)
def _committed_data(transactional_db):
    """Data a test creates must be committed for Daphne (another process) to see it."""
