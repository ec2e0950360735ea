"""The fast lane leaves out what tests/lanes.py says, by where a test lives, and `make test`
still runs everything."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import lanes

REPO = Path(__file__).resolve().parents[1]
SAMPLE = [
    "tests/e2e/test_pages.py",
    "tests/integration/test_stack.py",
    "tests/modelserve/services/test_mention_suggestion_training.py",
    "tests/bench/test_benchmarks_run.py",
    "tests/domain/operations/test_assign.py",
]


def collected(*args: str) -> set[str]:
    return set(collected_in_order(*args))


def collected_in_order(*args: str) -> list[str]:
    """The modules of the collected tests, in the order pytest (and xdist) will run them."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    modules = [line.split("::")[0] for line in result.stdout.splitlines() if "::" in line]
    return list(dict.fromkeys(modules))


@pytest.fixture(scope="module")
def sample_in_run_order() -> list[str]:
    return collected_in_order(*reversed(SAMPLE))


@pytest.mark.slow  # two pytest processes (~4 s of CPU each)
def test_the_fast_lane_leaves_out_browser_stack_and_training_modules_by_their_place(
    sample_in_run_order,
):
    assert set(sample_in_run_order) == set(SAMPLE)
    assert collected("-m", lanes.FAST, *SAMPLE) == {"tests/domain/operations/test_assign.py"}


@pytest.mark.slow  # the collection above
def test_the_long_modules_run_first_and_the_browser_modules_together(sample_in_run_order):
    assert sample_in_run_order == [
        "tests/integration/test_stack.py",
        "tests/bench/test_benchmarks_run.py",
        "tests/modelserve/services/test_mention_suggestion_training.py",
        "tests/e2e/test_pages.py",
        "tests/domain/operations/test_assign.py",
    ]


def make_plan(target: str) -> str:
    return subprocess.run(
        [shutil.which("make"), "--no-print-directory", "-n", target],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout


def test_make_test_fast_selects_the_lane_and_make_test_everything():
    fast = [line for line in make_plan("test-fast").splitlines() if "pytest" in line]
    every = [line for line in make_plan("test").splitlines() if "pytest" in line]

    assert len(fast) == 1
    assert f'-m "{lanes.FAST}"' in fast[0]
    assert len(every) == 1
    assert not re.search(r"\s-m\s", every[0])
    for plan in (fast[0], every[0]):  # three processes, the modules in tests/lanes.py's order
        assert "-n 3 --dist loadfile --no-loadscope-reorder" in plan


def test_every_module_the_lane_tables_name_exists():
    missing = sorted(m for m in lanes.TRAINING | lanes.SLOW if not (REPO / m).is_file())
    assert missing == [], "renamed or removed: update tests/lanes.py"
