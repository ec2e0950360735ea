"""`make test-flaky N=20`: the tests most likely to race, run N times under load.

    .venv/bin/python -m tests.flaky [--runs N] [--burners B] [--workers W] [MODULE ...]

Runs the browser tests (tests/e2e), the stack tests (tests/integration) and the worker modules
(WORKER_MODULES: a real Celery worker, several servers, or processes killed mid-job) N times
each, inside one pytest session per process (`-p tests.repeat --repeat N`, so Daphne, Chromium
and PostgreSQL start once per process), in W pytest processes (`-n 3 --dist loadfile`, as
`make test` does), with B busy-loop processes beside them to take the CPU a loaded CI runner
would. The burners are ended at the end whatever happens; each also stops by itself when this
process is gone.

At the end it prints every failure (test id, run number, phase, the failure's text and the
file that holds it with the test's captured output) and a summary: runs, tests run, failures
per test. The exit status is 0 only when nothing failed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from tests import lanes

REPO = lanes.TESTS.parent
# The slow modules (tests/lanes.py's SLOW) that start a real Celery worker, several web
# processes or servers of their own, and every model-worker module: what races with itself
# under load. Left out of SLOW's list: the wheel builds, the decoding port and the API fuzz,
# which run in one process with nothing to race.
WORKER_MODULES = (
    "tests/modelserve/services/test_baseline_runs.py",
    "tests/modelserve/services/test_runs_beside_a_training.py",
    *sorted(
        p.relative_to(REPO).as_posix()
        for p in (lanes.TESTS / "modelserve").rglob("test_*worker*.py")
    ),
    "tests/corpus/test_corpus_imports.py",
    "tests/corefapp/runtime/test_web_concurrency.py",
    "tests/corefapp/runtime/test_runtime_secrets.py",
    "tests/corefapp/backups/test_backup_schedule.py",
    "tests/corefapp/test_sockets_close_on_access_change.py",
    "tests/corefapp/test_healthz_with_open_sockets.py",
)
DEFAULT_MODULES = ("tests/e2e", "tests/integration", *WORKER_MODULES)
# A pure-Python busy loop; it looks at its parent every few million steps and ends with it.
BURNER = (
    "import os\n"
    "parent = os.getppid()\n"
    "while os.getppid() == parent:\n"
    "    for _ in range(3_000_000):\n"
    "        pass\n"
)
RUN_ID = re.compile(r"(?<=[\[-])run-(\d+)(-|(?=\]))")


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    log_dir = REPO / "var" / "test-flaky" / datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    log_dir.mkdir(parents=True, exist_ok=True)
    report = log_dir / "outcomes.jsonl"
    log = log_dir / "pytest.log"
    command = [
        sys.executable, "-m", "pytest", "-p", "tests.repeat", "-p", "no:cacheprovider",
        f"--repeat={args.runs}", f"--repeat-report={report}",
        *(["-n", str(args.workers), "--dist", "loadfile", "--no-loadscope-reorder"]
          if args.workers else []),
        *args.pytest_args, *(args.modules or DEFAULT_MODULES),
    ]  # fmt: skip
    print(f"{args.runs} runs, {args.burners} burners, {args.workers} processes; log: {log}")
    started = time.monotonic()
    with _burners(args.burners):
        status = _pytest(command, log)
    seconds = time.monotonic() - started
    failures = _summary(report, log_dir, log, args.runs, seconds)
    if status not in (0, 1) and not failures:
        print(f"pytest ended with status {status} and no test failed: see {log}")
        return status
    return 1 if failures or status else 0


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tests.flaky", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each test (N)")
    parser.add_argument("--burners", type=int, default=2, help="busy-loop processes beside")
    parser.add_argument("--workers", type=int, default=3, help="pytest processes (0: one)")
    parser.add_argument("--pytest-args", default="", help="more pytest arguments, e.g. '-k x'")
    parser.add_argument("modules", nargs="*", help="test files or folders (default: all)")
    args = parser.parse_args(argv)
    args.pytest_args = shlex.split(args.pytest_args)
    return args


@contextmanager
def _burners(count: int) -> Iterator[None]:
    burners = [subprocess.Popen([sys.executable, "-c", BURNER]) for _ in range(count)]
    # A SIGTERM or SIGHUP to the runner ends it through the finally below, not around it.
    previous = {sig: signal.signal(sig, _exit) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _exit(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def _pytest(command: list[str], log: Path) -> int:
    """pytest's output goes to the terminal and into the log as it comes (its progress dots
    end no line, so this reads what is there, not lines)."""
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    sys.stdout.flush()  # what was printed before comes before pytest's bytes
    with log.open("wb") as out:
        out.write((" ".join(command) + "\n").encode())
        process = subprocess.Popen(
            command, cwd=REPO, env={**os.environ, "PYTHONPATH": path},
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        assert process.stdout is not None
        try:
            while chunk := os.read(process.stdout.fileno(), 65536):
                sys.stdout.buffer.write(chunk)
                sys.stdout.flush()
                out.write(chunk)
                out.flush()
            return process.wait()
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()


def _summary(report: Path, log_dir: Path, log: Path, runs: int, seconds: float) -> list[dict]:
    entries = (
        [json.loads(line) for line in report.read_text().splitlines()] if report.exists() else []
    )
    ran = [e for e in entries if e.get("ran")]
    failures = [e for e in entries if "when" in e]
    print("\n" + "=" * 30 + " test-flaky " + "=" * 30)
    for number, failure in enumerate(failures, start=1):
        path = log_dir / f"failure-{number}.txt"
        sections = "".join(
            f"\n----- {name} -----\n{content}" for name, content in failure["sections"]
        )
        path.write_text(f"{failure['nodeid']} ({failure['when']})\n{failure['text']}\n{sections}")
        text = failure["text"].splitlines()
        print(
            f"\nFAILED {failure['nodeid']}  run {_run(failure['nodeid'])}, {failure['when']}, "
            f"process {failure.get('worker') or '-'}"
        )
        print("\n".join(("    " + line) for line in text[-25:]))
        print(f"    (all of it, with the captured output: {path})")
    per_test = Counter(_test(f["nodeid"]) for f in failures)
    print(
        f"\n{runs} runs, {len(ran)} tests run ({len({_test(e['nodeid']) for e in ran})} distinct), "
        f"{len(failures)} failures, {seconds / 60:.1f} min; log: {log}"
    )
    for test, count in per_test.most_common():
        print(f"  {count:3d}/{runs}  {test}")
    return failures


def _run(nodeid: str) -> str:
    found = RUN_ID.search(nodeid)
    return found.group(1) if found else "1"


def _test(nodeid: str) -> str:
    """The test without its run number: `test_x[run-3]` -> `test_x`, `[a-run-3]` -> `[a]`."""
    return RUN_ID.sub("", nodeid).replace("-]", "]").replace("[]", "")


if __name__ == "__main__":
    sys.exit(main())
