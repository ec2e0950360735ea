"""The wheel holds the whole application, and a non-editable install of it runs outside the
checkout.

`make up` runs from the checkout, where every app is found on the path whatever the wheel
holds; a wheel once left out three of the nine apps and nothing noticed. Here the wheel is
built from the checkout's files (tracked and new, as git sees them), installed without
`-e` into a fresh virtual environment in a temporary folder, and `manage.py check` and
`migrate` run there (as `django-admin`, which is what manage.py calls) against an empty
database.

The fresh environment takes the third-party packages from the project's own environment
through a path entry (a plain folder in a .pth file: its own .pth files, among them the
editable install's finder, are not run), so nothing is downloaded and the first-party code can
come only from the wheel. The scorer (scorer/, the corefscore distribution) is built and
installed beside it, as the Dockerfile installs it: the application imports it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

from tests.paths import REPO

# Top-level folders of the checkout that hold Python packages but are not the product.
NOT_SHIPPED = {"tests", "bench"}


def first_party_packages() -> set[str]:
    return {
        path.parent.name
        for path in REPO.glob("*/__init__.py")
        if path.parent.name not in NOT_SHIPPED
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    source = tmp_path_factory.mktemp("source")
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in filter(None, (entry.decode() for entry in listed)):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(out),
            str(source),
            str(source / "scorer"),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = out.glob("corefapp-*.whl")
    return built


def scorer_wheel(app_wheel: Path) -> Path:
    (built,) = app_wheel.parent.glob("corefscore-*.whl")
    return built


def test_the_wheel_holds_every_app_of_installed_apps_and_every_package(wheel):
    top_level = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    apps = {app.split(".")[0] for app in settings.INSTALLED_APPS}
    ours = {app for app in apps if (REPO / app / "__init__.py").exists()}

    assert len(ours) >= 8  # annotation, accounts, ... and corefapp itself
    assert ours - top_level == set()
    assert first_party_packages() - top_level == set()
    # Files the code reads at run time besides modules: the page template and the demo data.
    names = zipfile.ZipFile(wheel).namelist()
    templates = {p.relative_to(REPO).as_posix() for p in (REPO / "corefapp").rglob("*.html")}
    assert templates
    assert templates - set(names) == set()
    assert "fixtures/demo/scico_demo.jsonl" in names
    # The demo builder ships beside its source files, which it reads.
    sources = {
        p.relative_to(REPO).as_posix() for p in (REPO / "fixtures/demo/source").rglob("*.txt")
    }
    assert sources
    assert sources - set(names) == set()


def test_a_non_editable_install_outside_the_checkout_checks_and_migrates(wheel, services, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--target",
            str(purelib),
            str(wheel),
            str(scorer_wheel(wheel)),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (purelib / "project-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")

    database = "wheel_install"
    with psycopg.connect(services.postgres.url("postgres"), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {database}")
        conn.execute(f"CREATE DATABASE {database}")
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "corefapp.settings",
        "DATABASE_URL": services.postgres.url(database),
        "REDIS_URL": services.redis_url,
        "SECRET_KEY": "wheel-install-test-" + "k" * 40,
        "COREFAPP_VAR_DIR": str(tmp_path / "var"),
    }

    def django_admin(*args: str) -> str:
        result = subprocess.run(
            [python, "-m", "django", *args],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout + result.stderr

    packages = sorted(first_party_packages() | {"corefscore"})
    where = subprocess.run(
        [
            python,
            "-c",
            f"import {', '.join(packages)}; print({', '.join(p + '.__file__' for p in packages)})",
        ],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert all(path.startswith(str(purelib)) for path in where), where

    django_admin("check")
    django_admin("migrate", "--no-input")
    django_admin("migrate", "--check")  # exits 1 while a migration is left to apply
    with psycopg.connect(services.postgres.url(database)) as conn:
        migrated = {row[0] for row in conn.execute("SELECT DISTINCT app FROM django_migrations")}
    with_migrations = {p.parent.parent.name for p in REPO.glob("*/migrations/__init__.py")}
    assert len(with_migrations) >= 5
    assert with_migrations - migrated == set()
