"""Archives restore refuses before touching anything: one from a newer release, one whose
dump does not match its manifest, a file that is no archive."""

from __future__ import annotations

import io
import json
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
