"""Benchmarks run on their own embedded PostgreSQL and Redis, like the test session.

Several smoke runs can share one stack in one process (bench/together.py): inside
`shared_stack()`, `django_with_services()` lends the one set of servers (a benchmark's own
`stop()` leaves them running) and `signed_in_page()` opens a new browser context on the one
Daphne and Chromium. Each benchmark starting its own cost about 20 s of start-up (servers,
Django, migrations, Daphne, Chromium) per smoke run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


class _Shared:
    """The one stack of `shared_stack()`; Daphne and Chromium start with the first page."""

    def __init__(self, services: Any) -> None:
        self.services = services
        self.daphne: Any = None
        self.playwright: Any = None
        self.browser: Any = None

    def browser_on_daphne(self) -> tuple[Any, Any]:
        if self.browser is None:
            self.daphne, self.playwright, self.browser = _daphne_and_chromium(self.services)
        return self.daphne, self.browser

    def close(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.playwright.stop()
        if self.daphne is not None:
            self.daphne.stop()


class _Lent:
    """The shared servers as one benchmark sees them: its `stop()` leaves them running."""

    def __init__(self, services: Any) -> None:
        self._services = services

    def __getattr__(self, name: str) -> Any:
        return getattr(self._services, name)

    def stop(self) -> None:
        return  # shared_stack() stops them after the last benchmark


_shared: _Shared | None = None


@contextmanager
def shared_stack() -> Iterator[None]:
    """One PostgreSQL, Redis, Daphne and Chromium for every benchmark run inside."""
    global _shared
    services = django_with_services()
    shared = _shared = _Shared(services)
    try:
        yield
    finally:
        _shared = None
        try:
            shared.close()
        finally:
            services.stop()


def django_with_services():
    """Start the servers, point Django at them, migrate; returns the running Services."""
    if _shared is not None:
        return _Lent(_shared.services)
    from tests.services import start_services

    services = start_services()
    os.environ["DATABASE_URL"] = services.database_url
    os.environ["REDIS_URL"] = services.redis_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corefapp.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    return services


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def _daphne_and_chromium(services) -> tuple[Any, Any, Any]:
    """Daphne serving the built frontend on the bench's servers, and headless Chromium."""
    from django.conf import settings
    from playwright.sync_api import sync_playwright

    from tests.e2e.server import launch_chromium, require_frontend, start_daphne

    require_frontend()
    daphne = start_daphne(
        database_url=services.database_url,
        redis_url=services.redis_url,
        log_dir=REPO / "var" / "bench",
        secret_key=settings.SECRET_KEY,
    )
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # ORM calls between Playwright steps
    try:
        playwright = sync_playwright().start()
        try:
            return daphne, playwright, launch_chromium(playwright)
        except BaseException:
            playwright.stop()
            raise
    except BaseException:
        daphne.stop()
        raise


def _signed_in_context(browser, url: str, user):
    from tests.e2e.server import sign_in

    context = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=url)
    context.set_default_timeout(30_000)
    sign_in(context, url, user)
    return context


@contextmanager
def signed_in_page(services, user):
    """A page signed in as `user`, the way the browser tests open one, on Daphne and headless
    Chromium: the shared ones inside `shared_stack()` (a new context, closed after), else
    started here and stopped after."""
    if _shared is not None:
        daphne, browser = _shared.browser_on_daphne()
        context = _signed_in_context(browser, daphne.url, user)
        try:
            yield context.new_page()
        finally:
            context.close()
        return
    daphne, playwright, browser = _daphne_and_chromium(services)
    try:
        yield _signed_in_context(browser, daphne.url, user).new_page()
    finally:
        browser.close()
        playwright.stop()
        daphne.stop()
