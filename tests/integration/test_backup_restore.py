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


def test_a_backup_leaves_the_encoder_cache_out_and_a_restore_still_suggests(
    instance, tmp_path, settings, services
):
    """The encoder cache (197 of a 243 MB backup) is left out and named in the manifest; on a
    fresh machine the restored model suggests and the cache is rebuilt when next asked for."""
    from corefscore.formats.chemu import read_chemu_jsonlines
    from modelserve.backends.chemu_mentions import encoded
    from modelserve.backends.vector_cache import VectorCache
    from modelserve.caches import ENCODER_CACHE
    from modelserve.models import Suggestion
    from modelserve.queues import backend_queue
    from modelserve.services.runs import suggestion_run_request
    from tests.factories import UserFactory
    from tests.modelserve.backends.test_baseline_backends import tiny_nli
    from tests.modelserve.backends.test_vector_cache import CountingEncoder
    from tests.modelserve.services.test_runs_with_worker import demo_topic
    from tests.paths import CHEMU_DEMO
    from tests.workers import start_worker, wait_for

    env, models_dir, _ = instance
    nli = tiny_nli(models_dir / "test-tiny-nli")
    encoder = CountingEncoder()
    document = read_chemu_jsonlines(CHEMU_DEMO).topics[:1]
    tokens = document[0].documents[0].tokens
    encoded(encoder, document, {}, VectorCache(models_dir / ENCODER_CACHE, encoder))
    cached = [p for p in (models_dir / ENCODER_CACHE).rglob("*") if p.is_file()]
    assert cached
    kept = [p for p in models_dir.rglob("*") if p.is_file() and p not in cached]
    topic = demo_topic("restored suggestions")

    backup = tmp_path / "corefapp.tar.gz"
    backed_up = manage("backup", str(backup), env=env)
    assert backed_up.returncode == 0, backed_up.stderr
    assert "left out models/encoder-cache (1 files" in backed_up.stdout
    with tarfile.open(backup) as tar:
        names = tar.getnames()
        manifest = json.load(tar.extractfile("manifest.json"))
    assert not [n for n in names if ENCODER_CACHE in n], names
    assert "models/test-tiny-nli/config.json" in names
    assert manifest["model_files"] == len(kept)
    (left_out,) = manifest["left_out"]
    assert left_out["path"] == f"models/{ENCODER_CACHE}"
    assert (left_out["files"], left_out["bytes"]) == (1, cached[0].stat().st_size)
    assert "cache" in left_out["why"]
    assert "on demand" in left_out["rebuilt"]

    # A fresh machine: no models folder, an empty database.
    import shutil

    shutil.rmtree(models_dir)
    call_command("flush", interactive=False, verbosity=0)
    restored = manage("restore", str(backup), "--replace", env=env)
    assert restored.returncode == 0, restored.stderr
    connection.close()  # a fresh session: the restore replaced the schema under the old one
    assert (models_dir / "test-tiny-nli" / "config.json").is_file()
    assert not (models_dir / ENCODER_CACHE).exists()

    # The restored model suggests, on a real model worker reading the restored folder.
    settings.MODELS_DIR = models_dir  # the run's model path is checked against it
    topic = type(topic).objects.get(pk=topic.pk)
    run = suggestion_run_request(
        topic=topic,
        user=UserFactory(),
        backend="entailment",
        params={"nli_model": str(nli), "clusters": "same-head-lemma"},
    )
    worker = start_worker(services, queues=backend_queue("entailment"), MODELS_DIR=str(models_dir))
    try:
        run = wait_for(run, {"succeeded", "failed"})
    finally:
        worker.stop()
    assert run.status == "succeeded", run.error
    memberships = Suggestion.objects.filter(run=run, kind="membership")
    assert sorted(s.payload["mention"] for s in memberships) == sorted(
        topic.mentions.values_list("id", flat=True)
    )

    # The cache comes back on demand: the document is encoded again, and then read back.
    encoder.asked = []
    store = VectorCache(models_dir / ENCODER_CACHE, encoder)
    assert store.get(tokens) is None
    encoded(encoder, document, {}, store)
    assert encoder.asked == [tokens]
    assert store.get(tokens) is not None
