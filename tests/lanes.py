"""The test lanes: `make test` runs every test, `make test-fast` only the quick ones.

A test's lane follows from where it lives, so a new file lands in the right lane without
anyone remembering a marker:
- `tests/e2e/` is marked `e2e` (a real Chromium against Daphne),
- `tests/integration/` is marked `integration` (the whole stack the way `make up` starts it),
- a module whose name says `train` (`test_*train*.py`) is marked `training` (it trains a model),
- anything else that needs more than a few seconds carries `@pytest.mark.slow` itself
  (a real Celery worker, a model loaded and run, many web processes).

The fast lane is `-m "not e2e and not integration and not training and not slow"`. A
fast-lane test that takes longer than SLOW_SECONDS is named at the end of the run, so the
lane stays fast as tests are added.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
BY_DIRECTORY = {TESTS / "e2e": "e2e", TESTS / "integration": "integration"}
FAST = "not e2e and not integration and not training and not slow"
SLOW_SECONDS = 5.0


def mark(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path))
        for directory, marker in BY_DIRECTORY.items():
            if directory in path.parents:
                item.add_marker(marker)
        if "train" in path.stem:
            item.add_marker("training")


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
