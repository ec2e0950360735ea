"""Every benchmark of `make bench` runs to its end once, at a tiny size (BENCH_SMOKE=1), so
that none can rot unnoticed: the agreement benchmark failed for a while because nothing ran
it. The figures of a smoke run mean nothing and its goals are not checked (bench/smoke.py).
Each starts its own PostgreSQL and Redis, as `make bench` does, except two groups that run one
after another in one process on one stack (bench/together.py): the browser ones on one
PostgreSQL, Redis, Daphne and Chromium (they need the built frontend and chromium, like the
browser tests), and the ones that only need Django on the servers, which spares each group's
start-ups (about 20 s a benchmark, more on a loaded machine). The rest parse arguments or start
stacks of their own."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bench.__main__ import BENCHMARKS
from tests.paths import REPO

pytestmark = pytest.mark.bench

# The benchmarks that drive a real browser through Daphne.
BROWSER = ("frontend", "long-documents", "admin", "adjudication", "validation", "corpus")
# The ones that take Django on the servers from bench.environment.django_with_services and no
# arguments; none minds the rows of the ones before it.
DATABASE = ("imports", "suggestions", "corpus-candidates", "operations", "capacity")
ALONE = [(name, module) for name, module, _ in BENCHMARKS if name not in BROWSER + DATABASE]


def smoke_run(*argv: str, timeout: float = 540) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", *argv],
        cwd=REPO,
        env=dict(os.environ, BENCH_SMOKE="1", PYTHONPATH=str(REPO)),
        capture_output=True,
        text=True,
        # Generous: the figures do not matter here, and a loaded machine runs these 3x slower.
        timeout=timeout,
        check=False,
    )


@pytest.mark.parametrize(("name", "module"), ALONE)
def test_the_benchmark_runs_to_its_end_at_a_tiny_size(name, module):
    result = smoke_run(module)

    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-3000:])


@pytest.mark.timeout(1020)  # several benchmarks: the run's 600 s is for one
@pytest.mark.parametrize("group", [BROWSER, DATABASE], ids=["browser", "database"])
def test_a_group_of_benchmarks_runs_to_its_end_at_a_tiny_size_on_one_stack(group):
    assert set(group) <= {name for name, _, _ in BENCHMARKS}, "renamed: update the group"

    result = smoke_run("bench.together", *group, timeout=960)

    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-3000:])
    for name in group:  # each ran to its end, not only the last
        assert f"({name} took " in result.stdout, result.stdout[-3000:]
