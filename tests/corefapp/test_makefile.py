"""The Makefile's first checks: a missing tool is one line saying what to do."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


MAKE = shutil.which("make")


def make(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [MAKE, "--no-print-directory", *args],
        check=False,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def test_a_missing_python_is_a_one_line_error_naming_what_to_install():
    result = make("check-tools", "PYTHON=/nonexistent/python3.11")

    assert result.returncode != 0
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert lines == [
        "error: Python 3.11 not found: install it (or run make PYTHON=/path/to/python3.11 up)"
    ]


def test_a_missing_node_is_a_one_line_error_naming_what_to_install():
    # A PATH with a real Python 3.11 and the shell, but no node.
    tools = Path(tempfile.mkdtemp())
    (tools / "python3.11").symlink_to(sys._base_executable)
    (tools / "sh").symlink_to(shutil.which("sh"))
    result = make("check-tools", env={"PATH": str(tools)})

    assert result.returncode != 0
    assert "error: node not found: install Node.js 20" in result.stdout


def test_make_up_installs_builds_then_runs_the_launcher():
    plan = make("-n", "up").stdout

    assert plan.strip().splitlines()[-1].endswith("-m corefapp.runtime.up")
