"""Tests never write the checkout's var/imports or var/releases: the test session's default
storage, and its subprocesses' (STORAGE_DIR), is a folder of its own under var/test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from corefapp.runtime.defaults import var_dir
from tests.paths import REPO

PRINT_LOCATION = (
    "import django; django.setup(); "
    "from django.core.files.storage import default_storage as s; print(s.location)"
)


def test_the_default_storage_is_the_sessions_own_folder_and_so_is_its_subprocesses(services):
    location = Path(default_storage.location)
    assert services.root in location.parents
    name = default_storage.save("releases/session-storage-probe.txt", ContentFile(b"probe"))
    try:
        assert (location / name).read_bytes() == b"probe"
        assert not (var_dir() / name).exists()
        seen = subprocess.run(
            [sys.executable, "-c", PRINT_LOCATION],
            cwd=REPO,
            env=dict(os.environ, DJANGO_SETTINGS_MODULE="corefapp.settings"),
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
    finally:
        default_storage.delete(name)
    assert seen.stdout.strip() == str(location)
