"""Local state is private: files under var/ are 0600 and folders 0700 (the database, Redis's
append-only file, the logs, uploads, releases, models, backups), whether written by the
launcher's children, by a process started with a permissive umask, or left by an older
version. Real embedded PostgreSQL and Redis, a real Celery worker, a real training."""

from __future__ import annotations

import io
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil
import psycopg
import pytest
import redis

from corefapp.private_files import PRIVATE_UMASK, private_umask, var_private
from corefapp.runtime.defaults import var_dir
from corefapp.runtime.postgres import EmbeddedPostgres
from corefapp.runtime.redis_server import EmbeddedRedis
from tests.paths import REPO
from tests.ports import free_port


@pytest.fixture
def var():
    """A var/ of its own, under var/test (the unprivileged PostgreSQL user, as root, cannot
    traverse pytest's tmp dir)."""
    root = Path(tempfile.mkdtemp(prefix="private-", dir=var_dir() / "test"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def launcher_umask():
    """The launcher's umask for this test only (pytest's own files keep theirs)."""
    before = private_umask()
    yield
    os.umask(before)


def modes(root: Path) -> dict[str, int]:
    found = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(folder) / name
            if not path.is_symlink():
                found[str(path.relative_to(root))] = stat.S_IMODE(path.lstat().st_mode)
    return found


def test_what_the_embedded_servers_write_is_private(var, launcher_umask):
    var_private(var)
    pg = EmbeddedPostgres(var / "postgres", port=free_port(), password="a-secret")
    rd = EmbeddedRedis(var / "redis", port=free_port(), password="a-secret")
    pg.start()
    rd.start()
    try:
        psycopg.connect(pg.url(), connect_timeout=5).close()
        redis.Redis.from_url(rd.url()).set("annotation", "content")  # into the AOF
    finally:
        rd.stop()
        pg.stop()

    found = modes(var)
    assert "postgres.log" in found
    assert any("appendonly" in path for path in found)
    loose = {
        path: oct(mode)
        for path, mode in found.items()
        if mode & (0o066 if (var / path).is_dir() else 0o077)
    }
    assert loose == {}
    # var/ itself: 0700, or as root 0711 (PostgreSQL's system user passes through it).
    assert stat.S_IMODE(var.stat().st_mode) in ({0o711} if os.geteuid() == 0 else {0o700})


def test_files_and_folders_left_open_by_an_older_version_are_closed(var):
    (var / "log").mkdir(mode=0o755)
    (var / "log" / "web.log").write_text("GET /\n")
    (var / "log" / "web.log").chmod(0o644)
    (var / "test").mkdir()
    (var / "test" / "session").mkdir(mode=0o755)

    var_private(var)

    assert modes(var)["log"] == 0o700
    assert modes(var)["log/web.log"] == 0o600
    assert modes(var)["test/session"] == 0o755  # the test sessions' servers are theirs


# Every path that writes under var/, with a permissive umask in the process that writes: what
# it writes is 0600 in 0700 folders whatever the umask.


@pytest.fixture
def open_umask():
    """No umask at all in this process, for this test only: nothing gets its privacy from it."""
    before = os.umask(0o000)
    yield
    os.umask(before)


def loose_below(root: Path, written: Path) -> dict[str, str]:
    """Group or other bits on `written` (a file, or a folder with everything in it) and on each
    folder between `root` and it."""
    paths = [written, *[p for p in written.parents if root in p.parents]]
    if written.is_dir():
        paths += [
            Path(folder) / name for folder, dirs, files in os.walk(written) for name in dirs + files
        ]
    return {
        str(path): oct(stat.S_IMODE(path.stat().st_mode))
        for path in paths
        if stat.S_IMODE(path.stat().st_mode) & 0o077
    }


def process_umask(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Umask:"):
            return int(line.split()[1], 8)
    raise AssertionError(f"no umask for {pid}")


@pytest.mark.django_db
def test_a_release_bundle_is_stored_private(open_umask):
    from django.core.files.storage import default_storage

    from annotation.services.imports.topics import topics_import
    from datasets.services.release_storage import dataset_release_store
    from tests.factories import ProjectFactory
    from tests.paths import SCICO_DEMO

    project = ProjectFactory(name="private release", hierarchy=True)
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    stored = dataset_release_store(project=project, formats=["scico"])
    location = Path(default_storage.location)
    try:
        assert loose_below(location, location / stored.name) == {}
    finally:
        default_storage.delete(stored.name)


@pytest.mark.django_db
def test_a_queued_import_upload_is_stored_private(open_umask):
    from django.core.files.storage import default_storage
    from django.core.files.uploadedfile import SimpleUploadedFile

    from annotation.services.imports.jobs import import_job_create
    from tests.factories import ProjectFactory

    project = ProjectFactory(name="private upload", hierarchy=True)
    upload = SimpleUploadedFile("topics.jsonl", b'{"id": "t1"}\n')
    job = import_job_create(project=project, upload=upload, format="scico")
    location = Path(default_storage.location)
    try:
        assert (location / job.path).read_bytes() == b'{"id": "t1"}\n'
        assert loose_below(location, location / job.path) == {}
    finally:
        default_storage.delete(job.path)


@pytest.fixture
def models_dir(var, settings):
    """MODELS_DIR with a model an older version left open: 0644 files in 0755 folders."""
    models = var / "models"
    (models / "trained" / "project").mkdir(parents=True)
    weights = models / "trained" / "project" / "weights.pt"
    weights.write_bytes(b"weights")
    for path in (models, models / "trained", models / "trained" / "project"):
        path.chmod(0o755)
    weights.chmod(0o644)
    settings.MODELS_DIR = models
    return models


@pytest.mark.django_db
def test_a_backup_at_any_path_is_private_and_a_restore_makes_the_models_private(
    var, models_dir, open_umask
):
    from django.core.management import call_command

    from corefapp.backups import archive

    target = var / "elsewhere" / "chosen" / "backup.tar.gz"
    call_command("backup", str(target), stdout=io.StringIO())
    assert loose_below(var, target) == {}

    # What restore does after the database: unpack, and swap MODELS_DIR for the archive's
    # models, whose 0644 modes come from the archive.
    shutil.rmtree(models_dir)
    work = var / "restore-work"
    work.mkdir()
    archive.extract(target, work)
    assert stat.S_IMODE((work / "models/trained/project/weights.pt").stat().st_mode) == 0o644
    archive.replace_models(work)
    assert (models_dir / "trained" / "project" / "weights.pt").read_bytes() == b"weights"
    assert loose_below(var, models_dir) == {}


@pytest.mark.training
def test_a_trained_model_is_private_whatever_umask_the_command_inherits(var, tmp_path):
    from tests.integration.stack import chemu_train_head

    train = chemu_train_head(tmp_path / "chemu-train-head.jsonlines")
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", TRAIN_LINK_MODEL],
        cwd=REPO,
        env=dict(os.environ, MODELS_DIR=str(var / "models"), CHEMU_TRAIN_FILE=str(train)),
        preexec_fn=lambda: os.umask(0o000),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (var / "models" / "chemu" / "weights.pt").exists(), result.stdout
    assert loose_below(var, var / "models") == {}


TRAIN_LINK_MODEL = (
    "from modelserve.services.default_models import link_model_ensure; link_model_ensure()"
)


def test_a_celery_worker_writes_private_files_whatever_umask_it_inherits(services, open_umask):
    from django.conf import settings

    from tests.workers import Worker

    worker = Worker(
        database_url=services.postgres.url(),
        redis_url=services.redis_url,
        secret_key=settings.SECRET_KEY,
        queues="private-files-probe",
    )
    try:
        worker.wait_ready()
        processes = [psutil.Process(worker.process.pid)]
        processes += processes[0].children(recursive=True)
        assert {p.pid: oct(process_umask(p.pid)) for p in processes} == {
            p.pid: oct(PRIVATE_UMASK) for p in processes
        }
    finally:
        worker.stop()
