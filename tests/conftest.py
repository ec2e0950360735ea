"""Test session set-up: real PostgreSQL and Redis, started only when a test needs them.

Pure tests (tests/domain, tests/corefscore) never start a server. A test that uses the
database (pytest-django's `db` / `transactional_db`) or asks for `services` gets both servers,
and the Django settings that name them (database, cache, channel layer, Celery broker) are
pointed at them; the default storage too, at a folder of the session's (STORAGE_DIR for the
subprocesses).
"""

from __future__ import annotations

import os

import pytest
from django.core.files.storage import default_storage
from django.test import override_settings

from annotation.models import Project
from corefapp.storage import LOCAL as LOCAL_STORAGE
from datasets.selectors import release_name
from tests import hypothesis_profiles, lanes
from tests.factories import AdminFactory, demo_project, signed_in
from tests.services import Services, clone_migrated, start_services

hypothesis_profiles.load_profile()


def pytest_configure(config: pytest.Config) -> None:
    lanes.configure(config)
    config.addinivalue_line(
        "markers",
        "project(build=None, **arguments): the `project` fixture's project, made by "
        "build() or by tests.factories.demo_project(**arguments)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    lanes.mark(items)


@pytest.fixture(scope="session")
def services() -> Services:
    from django.conf import settings

    running = start_services()
    commits_without_waiting_for_the_disk(running)
    storage = running.root / "storage"
    settings.DATABASES["default"].update(
        NAME="corefapp",
        USER="postgres",
        PASSWORD=running.postgres.password,
        HOST=running.postgres.host,
        PORT=str(running.postgres.port),
    )
    # override_settings sends setting_changed, so Django's cache handler and Channels' layer
    # manager drop any backend built from the embedded defaults before the session started.
    redis_settings = override_settings(
        REDIS_URL=running.redis_url,
        CHANNEL_LAYERS={
            "default": {
                **settings.CHANNEL_LAYERS["default"],
                # The production host options (read timeout above channels-redis's blocking
                # pop) with the session's Redis: only the address changes.
                "CONFIG": {
                    "hosts": [
                        {**host, "address": running.redis_url}
                        for host in settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
                    ]
                },
            }
        },
        CACHES={"default": {**settings.CACHES["default"], "LOCATION": running.redis_url}},
        CELERY_BROKER_URL=running.redis_url,
        CELERY_RESULT_BACKEND=running.redis_url,
        STORAGES=session_storages(settings.STORAGES, storage),
    )
    redis_settings.enable()
    from corefapp.celery import app as celery_app

    celery_app.conf.update(broker_url=running.redis_url, result_backend=running.redis_url)
    # Subprocesses started by tests (daphne, celery workers) read these.
    os.environ["REDIS_URL"] = running.redis_url
    os.environ["STORAGE_DIR"] = str(storage)
    yield running
    os.environ.pop("STORAGE_DIR", None)
    redis_settings.disable()
    running.stop()


def commits_without_waiting_for_the_disk(running: Services) -> None:
    """The session's throwaway server answers a commit before its WAL reaches the disk
    (synchronous_commit off): tests commit at every operation, set-up and flush, and on a
    disk shared by busy processes each wait for the disk can take milliseconds. Nothing is
    lost unless PostgreSQL itself crashes, which no test does to this server (the outage tests
    start servers of their own). Only here: `make up` and the benchmarks keep the default."""
    import psycopg

    with psycopg.connect(running.postgres.url("postgres"), autocommit=True) as connection:
        connection.execute("ALTER SYSTEM SET synchronous_commit = 'off'")
        connection.execute("SELECT pg_reload_conf()")


def session_storages(storages: dict, folder) -> dict:
    """The local default storage (uploads, releases) in the session's own folder under
    var/test, removed with it: tests never write the checkout's var/imports or var/releases.
    A bucket (STORAGE_URL) is left as it is."""
    default = storages["default"]
    if default["BACKEND"] != LOCAL_STORAGE:
        return storages
    options = {**default.get("OPTIONS", {}), "location": str(folder)}
    return {**storages, "default": {**default, "OPTIONS": options}}


@pytest.fixture(scope="session")
def django_db_modify_db_settings(services: Services) -> None:
    """pytest-django calls this before creating the test database: use the session's server,
    and make the test database a copy of the migrated template (tests/services.py), which
    Django then keeps (`django_db_keepdb`): its migrate finds nothing left to do."""
    from django.conf import settings

    default = settings.DATABASES["default"]
    clone_migrated(services, default.get("TEST", {}).get("NAME") or f"test_{default['NAME']}")


@pytest.fixture(scope="session")
def django_db_keepdb() -> bool:
    """The test database is made above, and goes with the session's server at its end."""
    return True


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """PBKDF2's deliberate slowness is for production; tests create many users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_state_cache():
    """The process's cache of annotation states starts empty: a test's rolled-back rows give
    their ids to the next test's, whose states the cache would otherwise answer with."""
    from annotation.infra import state_cache

    state_cache.clear()


@pytest.fixture(autouse=True)
def declared_refusals_only(monkeypatch):
    """Every 4xx/503 a test's client receives is one the schema lists for that operation."""
    from tests.error_contract import watch

    watch(monkeypatch)


@pytest.fixture
def admin_client():
    """An API client signed in as a new admin (replaces pytest-django's Django-client fixture
    of the same name: these tests speak DRF)."""
    return signed_in(AdminFactory())


@pytest.fixture
def project(request):
    """The test's project: by default the SciCo demo's topics with gold, no annotations. A
    module (pytestmark) or test marked `@pytest.mark.project(...)` gets demo_project's project
    of those arguments, or the one its `build=` function makes. Its release, where a test made
    one, is removed afterwards."""
    marker = request.node.get_closest_marker("project")
    arguments = dict(marker.kwargs) if marker else {}
    build = arguments.pop("build", None)
    made = build(**arguments) if build else demo_project(**arguments)
    yield made
    if isinstance(made, Project):
        default_storage.delete(release_name(made))
