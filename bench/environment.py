"""Benchmarks run on their own embedded PostgreSQL and Redis, like the test session."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def django_with_services():
    """Start the servers, point Django at them, migrate; returns the running Services."""
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


@contextmanager
def signed_in_page(services, user):
    """Daphne serving the built frontend on the bench's servers, headless Chromium, and a page
    signed in as `user`, the way the browser tests open one; everything is stopped after."""
    from django.conf import settings
    from playwright.sync_api import sync_playwright

    from tests.e2e.server import launch_chromium, require_frontend, sign_in, start_daphne

    require_frontend()
    daphne = start_daphne(
        database_url=services.database_url,
        redis_url=services.redis_url,
        log_dir=REPO / "var" / "bench",
        secret_key=settings.SECRET_KEY,
    )
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # ORM calls between Playwright steps
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                context = browser.new_context(
                    viewport={"width": 1440, "height": 900}, base_url=daphne.url
                )
                context.set_default_timeout(30_000)
                sign_in(context, daphne.url, user)
                yield context.new_page()
            finally:
                browser.close()
    finally:
        daphne.stop()
