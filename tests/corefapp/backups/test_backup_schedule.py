"""`make up`'s backup schedule: a real `manage.py backup` child on the session's database, the
newest BACKUP_KEEP archives kept, and each one said aloud."""

from __future__ import annotations

import os
import subprocess
import tarfile
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from corefapp.backups.schedule import BackupScheduler, archives

REPO = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_due_backup_is_written_logged_and_old_ones_pruned(services, tmp_path, monkeypatch):
    folder = tmp_path / "backups"
    folder.mkdir()
    for day in ("20260101", "20260102", "20260103"):
        old = folder / f"corefapp-{day}T000000Z.tar.gz"
        old.write_bytes(b"old")
        os.utime(old, (0, 0))  # long ago: a backup is due at once
    monkeypatch.setenv("BACKUP_DIR", str(folder))
    monkeypatch.setenv("BACKUP_KEEP", "2")
    monkeypatch.setenv("BACKUP_INTERVAL_HOURS", "24")
    env = dict(
        os.environ,
        DATABASE_URL=services.postgres.url(connection.settings_dict["NAME"]),
        REDIS_URL=services.redis_url,
        SECRET_KEY=settings.SECRET_KEY,
        MODELS_DIR=str(tmp_path / "models"),
        DJANGO_SETTINGS_MODULE="corefapp.settings",
    )
    scheduler = BackupScheduler(tmp_path, REPO, tmp_path)
    scheduler.tick(lambda line: None)
    assert scheduler.running is None  # nothing is due before begin()
    scheduler.begin(env)
    assert str(folder) in scheduler.describe()
    assert "newest 2 kept" in scheduler.describe()
    said: list[str] = []
    scheduler.tick(said.append)
    assert scheduler.running is not None
    deadline = time.monotonic() + 120
    while scheduler.running is not None and time.monotonic() < deadline:
        time.sleep(0.2)
        scheduler.tick(said.append)
    assert any(line.startswith("backup written to") for line in said), (
        said,
        (tmp_path / "backup.log").read_text(),
    )
    kept = archives(folder)
    assert len(kept) == 2
    assert kept[-1] == scheduler.target
    with tarfile.open(kept[-1]) as tar:
        assert "database.sql" in tar.getnames()
    assert sum("old backup removed" in line for line in said) == 2
    # The next one is a day away: another tick starts nothing.
    scheduler.tick(said.append)
    assert scheduler.running is None


def test_no_backup_is_due_while_the_newest_is_younger_than_the_interval(tmp_path, monkeypatch):
    monkeypatch.setenv("BACKUP_DIR", str(tmp_path))
    (tmp_path / "corefapp-20260101T000000Z.tar.gz").write_bytes(b"recent")
    scheduler = BackupScheduler(tmp_path, REPO, tmp_path)
    scheduler.begin({})
    scheduler.tick(lambda line: None)
    assert scheduler.running is None
    assert scheduler.next_at > time.time() + 23 * 3600


def test_stop_ends_a_running_backup_and_its_children(tmp_path, monkeypatch):
    import psutil

    monkeypatch.setenv("BACKUP_DIR", str(tmp_path))
    scheduler = BackupScheduler(tmp_path, REPO, tmp_path)
    # A stand-in for `manage.py backup` whose child (like pg_dump) outlives a plain SIGTERM
    # to its parent: only the process group reaches it.
    scheduler.running = subprocess.Popen(["sh", "-c", "sleep 300 & wait"], start_new_session=True)
    # Until the shell has started its child (a fixed 0.3 s can pass first on a loaded machine).
    deadline = time.monotonic() + 30
    while not (children := psutil.Process(scheduler.running.pid).children(recursive=True)):
        assert time.monotonic() < deadline, "the stand-in never started its child"
        time.sleep(0.01)
    scheduler.stop()
    assert scheduler.running.poll() is not None
    _, alive = psutil.wait_procs(children, timeout=5)
    assert not alive
