"""A pytest plugin for the flaky-test runner (tests/flaky.py): `-p tests.repeat`.

`--repeat N` runs every collected test N times in the same session, as `test_x[run-1]` ...
`test_x[run-N]`, so the session- and package-scoped servers (PostgreSQL, Redis, Daphne,
Chromium) start once per pytest process rather than once per run, and a race shows up beside
the same neighbours `make test` gives it.

`--repeat-report PATH` writes one JSON line per test phase that did not pass (set-up, call or
tear-down; with pytest-xdist, from the controlling process, which receives every worker's
reports) and one line per test run, for the runner's summary.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

RUN_FIXTURE = "_repeat_run"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("repeat")
    group.addoption("--repeat", type=int, default=1, help="run each test N times (ids run-K)")
    group.addoption("--repeat-report", default=None, help="JSON lines of outcomes (runner)")


@pytest.fixture
def _repeat_run(request: pytest.FixtureRequest) -> int:
    return request.param


@pytest.hookimpl(trylast=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    count = metafunc.config.getoption("repeat")
    if count > 1:
        metafunc.fixturenames.append(RUN_FIXTURE)
        metafunc.parametrize(
            RUN_FIXTURE, range(1, count + 1), indirect=True, ids=lambda k: f"run-{k}"
        )


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("repeat_report")
    # Only the controlling process writes: xdist's workers send it their reports.
    if path and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_Report(Path(path)), "repeat-report")


class _Report:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = path.open("w", encoding="utf-8")

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        ran = report.when == "call" or (report.when == "setup" and not report.passed)
        if ran:
            self._write({"nodeid": report.nodeid, "ran": True})
        if report.failed:
            self._write(
                {
                    "nodeid": report.nodeid,
                    "when": report.when,
                    "worker": _worker(report),
                    "text": report.longreprtext,
                    "sections": [[name, content] for name, content in report.sections],
                }
            )

    def _write(self, entry: dict) -> None:
        self.file.write(json.dumps(entry) + "\n")
        self.file.flush()

    @pytest.hookimpl
    def pytest_unconfigure(self) -> None:
        self.file.close()


def _worker(report: pytest.TestReport) -> str | None:
    """The xdist worker (gw0, gw1, ...) that ran it: its log lines carry that name."""
    gateway = getattr(getattr(report, "node", None), "gateway", None)
    return getattr(gateway, "id", None)
