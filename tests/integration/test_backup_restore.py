"""Backup and restore with real processes: `manage.py backup` and `manage.py restore` run as
their own processes against the session's PostgreSQL while a Daphne web server serves the
same database; every table, every sequence and every operation log must come back identical."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import Client

from annotation.domain.errors import NoChange
from annotation.models import Annotation, Operation
from tests.e2e.data import apply_ops, mention_ids
from tests.e2e.server import start_daphne
from tests.workers import LOGS

REPO = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def manage(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def snapshot() -> dict:
    """Every row of every table (ordered by all columns) and every sequence's position."""
    connection.close()  # a fresh session: the restore replaced the schema under the old one
    tables = sorted(connection.introspection.table_names())
    rows = {}
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f'SELECT * FROM "{table}"')
            rows[table] = sorted(map(repr, cursor.fetchall()))
        cursor.execute("SELECT sequencename, last_value FROM pg_sequences ORDER BY 1")
        rows["<sequences>"] = cursor.fetchall()
    return rows


def operation_logs() -> dict[int, list[tuple]]:
    logs: dict[int, list[tuple]] = {}
    for op in Operation.objects.order_by("annotation_id", "pk"):
        logs.setdefault(op.annotation_id, []).append(
            (
                op.pk,
                op.version,
                op.kind,
                op.target_id,
                op.name,
                json.dumps(op.payload, sort_keys=True),
                json.dumps(op.effects, sort_keys=True),
                op.user_id,
                op.created_at,
            )
        )
    return logs


def edit_something() -> Annotation:
    annotation = (
        Annotation.objects.select_related("assignment__user", "assignment__topic")
        .filter(assignment__topic__project__name__icontains="scico")
        .first()
        or Annotation.objects.select_related("assignment__user", "assignment__topic").first()
    )
    user = annotation.assignment.user
    for mention in mention_ids(annotation.assignment.topic):
        try:
            apply_ops(annotation, user, [{"op": "assign", "mention": mention, "cluster": None}])
            return annotation
        except NoChange:
            continue  # already alone in its cluster: the next mention
    raise AssertionError("no mention left to move")


@pytest.fixture
def instance(services, tmp_path_factory):
    models_dir = Path(settings.MODELS_DIR).parent / f"test-backup-models-{os.getpid()}"
    (models_dir / "chemu").mkdir(parents=True, exist_ok=True)
    (models_dir / "chemu" / "weights.bin").write_bytes(os.urandom(4096))
    database_url = services.postgres.url(connection.settings_dict["NAME"])
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        REDIS_URL=services.redis_url,
        SECRET_KEY=settings.SECRET_KEY,
        MODELS_DIR=str(models_dir),
        DJANGO_SETTINGS_MODULE="corefapp.settings",
    )
    web = start_daphne(
        database_url=database_url,
        redis_url=services.redis_url,
        log_dir=LOGS,
        secret_key=settings.SECRET_KEY,
    )
    yield env, models_dir, web
    web.stop()
    import shutil

    shutil.rmtree(models_dir, ignore_errors=True)


def test_backup_wipe_restore_gives_back_every_row_and_every_log(instance, tmp_path):
    env, models_dir, web = instance
    call_command("load_demo", verbosity=0)
    for _ in range(3):
        edited = edit_something()
    version_at_backup = Annotation.objects.get(pk=edited.pk).version
    before, logs_before = snapshot(), operation_logs()
    model_bytes = (models_dir / "chemu" / "weights.bin").read_bytes()

    archive = tmp_path / "backups" / "corefapp.tar.gz"
    backed_up = manage("backup", str(archive), env=env)
    assert backed_up.returncode == 0, backed_up.stderr
    assert str(archive) in backed_up.stdout
    with tarfile.open(archive) as tar:
        manifest = json.load(tar.extractfile("manifest.json"))
    assert manifest["migrations"]["annotation"], manifest
    assert manifest["versions"]["postgresql_server"]
    assert manifest["model_files"] == 1

    # Work done after the backup, which the restore must take away again.
    edit_something()
    (models_dir / "chemu" / "weights.bin").write_bytes(b"newer")
    assert snapshot() != before

    refused = manage("restore", str(archive), env=env)
    assert refused.returncode != 0
    assert "--replace" in refused.stderr
    assert operation_logs() != logs_before  # nothing was restored

    # Wipe: every row gone, and a stray account in the empty instance.
    call_command("flush", interactive=False, verbosity=0)
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("stray", password="x")
    assert Operation.objects.count() == 0

    restored = manage("restore", str(archive), "--replace", env=env)
    assert restored.returncode == 0, restored.stderr
    after, logs_after = snapshot(), operation_logs()
    assert after.keys() == before.keys()
    for table in before:
        assert after[table] == before[table], table
    assert logs_after == logs_before
    assert (models_dir / "chemu" / "weights.bin").read_bytes() == model_bytes

    # The web server that ran through it all serves the restored data.
    annotation = Annotation.objects.select_related("assignment__user").get(pk=edited.pk)
    client = Client()
    client.force_login(annotation.assignment.user)
    request = urllib.request.Request(
        f"{web.url}/api/annotations/{annotation.pk}/",
        headers={"Cookie": f"sessionid={client.cookies['sessionid'].value}"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        served = json.load(response)
    assert served["version"] == annotation.version == version_at_backup
    rows = sum(len(v) for k, v in before.items() if k != "<sequences>")
    print(
        f"restored {rows} rows in {len(before) - 1} tables, "
        f"{sum(map(len, logs_before.values()))} operations in {len(logs_before)} logs"
    )
