"""The reports' two tables moved from the core's models to reporting's in Django's state only
(annotation migration 0016, reporting 0001): a database whose rows were written while the
core owned them keeps every row, and reporting's models read them after `manage.py migrate`.

The rows are written through the historical models of the state before the move (the core
at 0014, no reporting app), as tests/integration/test_upgrade.py writes its old data."""

from __future__ import annotations

import json
import os

import pytest
from django.conf import settings

from tests.integration.databases import manage, second_database

pytestmark = pytest.mark.integration

BEFORE = "0014_hierarchy_count_scico"

# The core at 0014 (and what it needs), then rows in both tables through that state's models.
SEED = f"""
import datetime
import json
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

call_command("migrate", "annotation", "{BEFORE}", verbosity=0)
loader = MigrationExecutor(connection).loader
assert ("reporting", "0001_initial") not in loader.applied_migrations
apps = loader.project_state([("annotation", "{BEFORE}")]).apps
m = lambda name: apps.get_model("annotation", name)
project = m("Project").objects.create(name="before the move")
topic = m("Topic").objects.create(project=project, external_id="t1")
key = m("Annotation").objects.create(topic=topic, kind="gold", version=3)
user = apps.get_model("auth", "User").objects.create(username="ann")
assignment = m("Assignment").objects.create(topic=topic, user=user, status="submitted")
response = m("Annotation").objects.create(topic=topic, assignment=assignment, version=5)
m("AgreementPair").objects.create(
    topic=topic, key=key, key_version=3, response=response, response_version=5,
    options="scico|v1", counts={{"scico": [1, 2, 3]}})
m("SuggestionShown").objects.create(
    annotation=response, suggestion=41,
    shown_at=datetime.datetime(2026, 11, 30, 12, 0, tzinfo=datetime.timezone.utc))
print(json.dumps([key.pk, response.pk]))
"""

CHECK = """
import json
from reporting.models import AgreementPair, SuggestionShown

pair = AgreementPair.objects.get()
shown = SuggestionShown.objects.get()
print(json.dumps({
    "pair": [pair.key_id, pair.key_version, pair.response_id, pair.response_version,
             pair.options, pair.counts],
    "shown": [shown.annotation_id, shown.suggestion, shown.shown_at.isoformat()],
}))
"""


@pytest.fixture
def database(services):
    with second_database(services, f"reporting_tables_{os.getpid()}") as url:
        yield url


def test_rows_written_while_the_core_owned_the_tables_are_read_by_reporting(database, services):
    env = dict(
        os.environ,
        DATABASE_URL=database,
        REDIS_URL=services.redis_url,
        SECRET_KEY=settings.SECRET_KEY,
        DJANGO_SETTINGS_MODULE="corefapp.settings",
    )
    key, response = json.loads(manage(env, "shell", "-c", SEED).strip().splitlines()[-1])

    manage(env, "migrate")

    checked = json.loads(manage(env, "shell", "-c", CHECK).strip().splitlines()[-1])
    assert checked["pair"] == [key, 3, response, 5, "scico|v1", {"scico": [1, 2, 3]}]
    assert checked["shown"] == [response, 41, "2026-11-30T12:00:00+00:00"]
