"""Every benchmark of `make bench` runs to its end once, at a tiny size (BENCH_SMOKE=1), so
that none can rot unnoticed: the agreement benchmark failed for a while because nothing ran
it. The figures of a smoke run mean nothing and its goals are not checked (bench/smoke.py).
Each starts its own PostgreSQL and Redis, as `make bench` does; the browser ones need the
built frontend and chromium, like the browser tests."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bench.__main__ import BENCHMARKS
from tests.paths import REPO

pytestmark = pytest.mark.bench


@pytest.mark.parametrize(("name", "module"), [(name, module) for name, module, _ in BENCHMARKS])
def test_the_benchmark_runs_to_its_end_at_a_tiny_size(name, module):
    env = dict(os.environ, BENCH_SMOKE="1", PYTHONPATH=str(REPO))
    result = subprocess.run(
        [sys.executable, "-m", module],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        # Generous: the figures do not matter here, and a loaded machine runs these 3x slower.
        timeout=540,
        check=False,
    )

    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-3000:])
