"""The test lanes: `make test` runs every test, `make test-fast` only the quick ones.

A test's lane follows from where it lives, so a new file lands in the right lane without
anyone remembering a marker:
- `tests/e2e/` is marked `e2e` (a real Chromium against Daphne),
- `tests/integration/` is marked `integration` (the whole stack the way `make up` starts it),
- a module whose name says `train` (`test_*train*.py`), or one named in TRAINING, is marked
  `training` (it trains a model),
- a module named in SLOW is marked `slow` (a real Celery worker, several web processes,
  servers started and stopped per test); a single slow test elsewhere carries
  `@pytest.mark.slow` itself.

The two tables name modules rather than marking inside them so that the files stay as they
are (several people edit them at once); tests/test_lanes.py fails when an entry names a module
that no longer exists.

The fast lane is `-m "not e2e and not integration and not training and not slow and not bench"`. A
fast-lane test that takes longer than SLOW_SECONDS is named at the end of the run, so the
lane stays fast as tests are added.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
BY_DIRECTORY = {TESTS / "e2e": "e2e", TESTS / "integration": "integration"}
# Seconds are one loaded run (tests/modelserve etc. at load average ~10 on 2 cores, 12:20 UTC
# on 2026-11-26), to say why each is here.
TRAINING = {
    "tests/modelserve/test_chemu_commands.py",  # 120 s: trains the pair model from SciCo
    "tests/modelserve/test_predict_raw.py",  # 74 s: trains a tagger to predict with
    "tests/modelserve/backends/test_mention_tagger.py",  # 68 s: a tiny training run in set-up
    "tests/modelserve/backends/test_chemu_backend.py",  # 12 s: trains on sixty snippets
    "tests/modelserve/backends/test_trained.py",  # 5 s: trains on small gold topics
    "tests/modelserve/services/test_model_evaluation_anaphora.py",  # trains on forty snippets
}
SLOW = {
    "tests/modelserve/services/test_runs_with_worker.py",  # 46 + 42 + 22 s: real Celery workers
    "tests/modelserve/services/test_mention_suggestion_worker.py",  # a real worker that trains
    "tests/modelserve/services/test_baseline_runs.py",  # 126 s: a real worker runs four backends
    "tests/modelserve/services/test_model_evaluation_worker.py",  # a real worker scores a baseline
    "tests/modelserve/services/test_model_caches_worker.py",  # 115 s: a real worker, five versions
    # two real model workers encode a corpus, the first killed mid-chunk
    "tests/modelserve/services/test_corpus_encoding_worker.py",
    # 42 s: a real model worker runs a candidate-topic run started through the API
    "tests/modelserve/services/test_candidate_run_worker.py",
    # a real default worker imports an upload (one test; the rest run the job's body here)
    "tests/corpus/test_corpus_imports.py",
    # 60 s: 2,000 random topics decoded twice, once by the port of SciCo's released code
    "tests/modelserve/backends/test_scico_decoding.py",
    "tests/corefapp/runtime/test_web_concurrency.py",  # 25 + 17 s: several Daphne processes
    "tests/corefapp/runtime/test_runtime_secrets.py",  # 14 + 9 s: PostgreSQL and Redis per test
    "tests/corefapp/backups/test_backup_schedule.py",  # 7 s: a real `manage.py backup` process
    "tests/corefapp/test_wheel.py",  # 80 s: builds the wheel, installs it in a fresh venv
    # builds the corefscore wheel, installs it and its dependencies in a fresh venv
    "tests/corefscore/test_wheel_alone.py",
    # 11 s each in three pytest processes: Daphne processes with websockets open (measured)
    "tests/corefapp/test_sockets_close_on_access_change.py",
    "tests/corefapp/test_healthz_with_open_sockets.py",
    # 312 cases of generated requests against every operation and role: 146 s idle, several
    # minutes at load 10, more than half of what tests/annotation costs; the API's net for
    # 500s, which make test runs, while the API's own tests stay in the fast lane.
    "tests/annotation/api/test_api_fuzz.py",
}
FAST = "not e2e and not integration and not training and not slow and not bench"
# `make test` runs three pytest processes (pytest-xdist, one module at a time each, in the
# order collected: --no-loadscope-reorder). The long modules go first so that no process is
# left with a 70 s module while the others have finished, and the browser modules come together
# so each process starts Daphne and Chromium (package scope) once rather than once per visit.
RUN_ORDER = ("integration", "bench", "training", "slow", "e2e")
SLOW_SECONDS = 5.0


def mark(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path))
        for directory, marker in BY_DIRECTORY.items():
            if directory in path.parents:
                item.add_marker(marker)
        module = path.relative_to(TESTS.parent).as_posix()
        if "train" in path.stem or module in TRAINING:
            item.add_marker("training")
        if module in SLOW:
            item.add_marker("slow")
    items.sort(key=_run_rank)  # stable: the collected order within a rank


def _run_rank(item: pytest.Item) -> int:
    for rank, marker in enumerate(RUN_ORDER):
        if item.get_closest_marker(marker) is not None:
            return rank
    return len(RUN_ORDER)


class SlowInFastLane:
    """Collects fast-lane tests over SLOW_SECONDS (set-up, call and tear-down together)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration

    @pytest.hookimpl
    def pytest_terminal_summary(self, terminalreporter) -> None:
        slow = sorted(
            ((s, node) for node, s in self.seconds.items() if s > SLOW_SECONDS), reverse=True
        )
        if slow:
            terminalreporter.section("slow tests in the fast lane")
            terminalreporter.write_line(
                f"these took over {SLOW_SECONDS:.0f} s: mark them @pytest.mark.slow "
                "(or make them faster)"
            )
            for seconds, node in slow:
                terminalreporter.write_line(f"{seconds:6.1f} s  {node}")


def configure(config: pytest.Config) -> None:
    if config.getoption("markexpr", "") == FAST:
        config.pluginmanager.register(SlowInFastLane(), "slow-in-fast-lane")
