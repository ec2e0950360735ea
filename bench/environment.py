"""Benchmarks run on their own embedded PostgreSQL and Redis, like the test session."""

from __future__ import annotations

import os


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
