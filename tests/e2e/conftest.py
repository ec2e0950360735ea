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
    # A request the page still has in flight (an autosave, a poll) holds row locks in the
    # server while the test database is flushed next: the TRUNCATE and that transaction then
    # deadlock (seen in a CI run). Let them end first (a few ms; at most 5 s).
    for context in contexts:
        for page in context.pages:
            deadline = time.monotonic() + 5
            while getattr(page, "in_flight", None) and time.monotonic() < deadline:
                page.wait_for_timeout(20)
    failed = getattr(request.node, "rep_call", None)
    for index, context in enumerate(contexts):
        if failed is not None and failed.failed:
            ARTIFACTS.mkdir(exist_ok=True)
            for n, page in enumerate(context.pages):
                try:
                    page.screenshot(
                        path=str(ARTIFACTS / f"failed-{request.node.name}-{index}-{n}.png")
                    )
                except Exception:  # noqa: BLE001, S110 - a closed page has no screenshot to give
                    pass
        context.close()


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
