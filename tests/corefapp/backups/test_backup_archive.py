"""Archives restore refuses before touching anything: one from a newer release, one whose
dump does not match its manifest, a file that is no archive."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile

import pytest

from annotation.models import Project
from corefapp.backups import archive
from corefapp.backups.pg_tools import BackupError
from corefapp.backups.restore import restore

pytestmark = pytest.mark.django_db


def write_archive(path, manifest: dict, dump: bytes = b"SELECT 1;\n") -> None:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in (
            (archive.MANIFEST, json.dumps(manifest).encode()),
            (archive.DATABASE, dump),
        ):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def current_manifest() -> dict:
    return {
        "format": archive.FORMAT,
        "created_at": "2026-11-26T00:00:00+00:00",
        "migrations": archive.applied_migrations(),
        "database_sha256": "0" * 64,
        "model_files": 0,
    }


def test_an_archive_from_a_newer_release_is_refused_and_nothing_changes(tmp_path):
    Project.objects.create(name="kept", hierarchy=True)
    manifest = current_manifest()
    manifest["migrations"]["annotation"].append("9999_from_the_future")
    write_archive(tmp_path / "new.tar.gz", manifest)
    with pytest.raises(BackupError, match="newer release.*annotation.9999_from_the_future"):
        restore(tmp_path / "new.tar.gz", replace=True)
    assert Project.objects.filter(name="kept").exists()


def test_a_dump_that_does_not_match_its_checksum_is_refused(tmp_path, settings):
    settings.MODELS_DIR = tmp_path / "models"
    Project.objects.create(name="kept", hierarchy=True)
    write_archive(tmp_path / "bad.tar.gz", current_manifest(), dump=b"DROP TABLE x;\n")
    with pytest.raises(BackupError, match="does not match its checksum"):
        restore(tmp_path / "bad.tar.gz", replace=True)
    assert Project.objects.filter(name="kept").exists()


def test_a_file_that_is_no_archive_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(BackupError, match="not a corefapp backup archive"):
        restore(tmp_path / "notes.txt", replace=True)


def test_a_restore_keeps_the_instances_own_encoder_cache_and_replaces_the_models(
    tmp_path, settings
):
    """The archive leaves the cache out, so a restore on the machine that took the backup keeps
    the vectors it already has rather than encoding every document again."""
    from modelserve.caches import ENCODER_CACHE

    models = tmp_path / "models"
    settings.MODELS_DIR = models
    (models / "chemu").mkdir(parents=True)
    (models / "chemu" / "newer.bin").write_bytes(b"after the backup")
    (models / ENCODER_CACHE / "ab").mkdir(parents=True)
    (models / ENCODER_CACHE / "ab" / "abcd.npy").write_bytes(b"vectors")
    extracted = tmp_path / "extracted"
    (extracted / archive.MODELS / "chemu").mkdir(parents=True)
    (extracted / archive.MODELS / "chemu" / "weights.bin").write_bytes(b"backed up")

    archive.replace_models(extracted)

    assert sorted(p.name for p in (models / "chemu").iterdir()) == ["weights.bin"]
    assert (models / ENCODER_CACHE / "ab" / "abcd.npy").read_bytes() == b"vectors"


# What a model worker does as it trains and fills its caches: a temporary file, renamed into
# place (modelserve/model_store.py, backends/vector_cache.py), over and over.
TRAINER = """
import os, sys, tempfile, time
folders = sys.argv[1:]
while True:
    for folder in folders:
        handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
        os.write(handle, b"weights")
        os.close(handle)
        time.sleep(0.0005)
        os.replace(temporary, os.path.join(folder, "weights.bin"))
"""


def test_a_backup_beside_a_training_that_renames_its_files_succeeds(tmp_path, settings):
    """The first start's backup runs while the model worker trains and fills its caches, so
    files the listing saw are gone when the archive reaches them (a make up under load logged
    "backup ... failed")."""
    from modelserve.caches import ENCODER_CACHE

    models = tmp_path / "models"
    settings.MODELS_DIR = models
    many = models / "a-trained-model"  # sorted first: the archive reaches the others later
    many.mkdir(parents=True)
    for k in range(300):
        (many / f"part-{k:03}.bin").write_bytes(os.urandom(20_000))
    folders = [models / "chemu-mentions", models / ENCODER_CACHE / "ab"]
    for folder in folders:
        folder.mkdir(parents=True)
    trainer = subprocess.Popen([sys.executable, "-c", TRAINER, *map(str, folders)])
    try:
        infos = [archive.write(tmp_path / f"backup-{n}.tar.gz") for n in range(2)]
    finally:
        trainer.kill()
        trainer.wait(10)

    for n, info in enumerate(infos):
        with tarfile.open(tmp_path / f"backup-{n}.tar.gz") as tar:
            names = tar.getnames()
        held = [name for name in names if name.startswith(f"{archive.MODELS}/")]
        assert info["model_files"] == len(held)
        assert sum(name.startswith(f"{archive.MODELS}/a-trained-model/") for name in held) == 300
        assert not any(ENCODER_CACHE in name for name in names)  # the cache stays out
        assert archive.read_manifest(tmp_path / f"backup-{n}.tar.gz") == info
