"""HYPOTHESIS_PROFILE picks the profile, `ci` by default, and the stateful operation test takes
its example count from it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
READ_COUNT = """
from tests import hypothesis_profiles
hypothesis_profiles.load_profile()
from tests.domain.operations.test_stateful import AnnotationMachine
print(AnnotationMachine.TestCase.settings.max_examples)
"""


def stateful_examples(profile: str | None) -> int:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("HYPOTHESIS_PROFILE", None)
    if profile is not None:
        env["HYPOTHESIS_PROFILE"] = profile
    result = subprocess.run(
        [sys.executable, "-c", READ_COUNT],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return int(result.stdout.split()[-1])


@pytest.mark.parametrize(("profile", "examples"), [(None, 100), ("ci", 100), ("deep", 2000)])
def test_the_stateful_test_runs_the_profiles_example_count(profile, examples):
    assert stateful_examples(profile) == examples


def test_an_unknown_profile_is_refused_by_name():
    with pytest.raises(AssertionError, match="the profiles are ci, deep"):
        stateful_examples("thorough")
