"""`make up` under faults, on real processes: a model worker killed mid-run is restarted and its
run completed; a second `make up` right after Ctrl-C waits for the first and starts."""

from __future__ import annotations

import os
import signal
import time

import psutil
import pytest

from corefapp.runtime.preflight import free_port
from tests.integration.stack import Launcher, wait_healthy

pytestmark = pytest.mark.integration

STALE_SECONDS = 6  # SUGGEST_HEARTBEAT_STALE_SECONDS for this stack: a dead run is noticed fast


def model_worker_main_pid(launcher: Launcher) -> int:
    """The Celery main process of the `models` worker (a child of the launcher itself)."""
    for child in psutil.Process(launcher.proc.pid).children():
        if "models@%h" in child.cmdline():
            return child.pid
    raise AssertionError("no models worker among the launcher's children")


def poll_run(launcher: Launcher, token: str, topic: int, run: int, until, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        _, listing = launcher.api("GET", f"/api/topics/{topic}/suggestion-runs/", token=token)
        found = next(r for r in listing["runs"] if r["run"] == run)
        if until(found):
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"run {found} after {timeout} s:\n{launcher.read_output()}")
        time.sleep(0.05)


def test_a_killed_model_worker_is_restarted_and_its_run_is_taken_over_and_completed(var_root):
    launcher = Launcher(
        var_root / "var",
        free_port(),
        free_port(),
        free_port(),
        extra_env={"SUGGEST_HEARTBEAT_STALE_SECONDS": str(STALE_SECONDS)},
    )
    launcher.start()
    try:
        token = launcher.token("admin")
        _, mine = launcher.api("GET", "/api/assignments/mine/", token=launcher.token("annotator1"))
        # The run must still be running when the worker is killed, so it must do real work:
        # the SciCo demo's backend (minilm) loads MiniLM and encodes every mention, seconds on
        # a CPU. A ChEMU demo topic does not do: while its mention tagger trains (every first
        # start) a chemu run only scores the existing pairs, about 0.2 s now that the worker
        # loads torch at start-up (it used to load it during its first run, which hid this).
        # A real topic, too: suggestions are off on practice topics (issue 24).
        topic = next(
            row["topic"]["id"]
            for row in mine
            if row["project"]["name"] == "SciCo demo" and not row.get("practice")
        )
        _, listing = launcher.api("GET", f"/api/topics/{topic}/suggestion-runs/", token=token)
        assert listing["backend"] == "minilm", listing
        status, requested = launcher.api(
            "POST", f"/api/topics/{topic}/suggestion-runs/", {}, token=token
        )
        assert status == 201, requested
        run = requested["run"]
        running = poll_run(launcher, token, topic, run, lambda r: r["status"] != "queued", 180)
        assert running["status"] == "running", f"the run ended before the kill: {running}"

        os.kill(model_worker_main_pid(launcher), signal.SIGKILL)
        killed = time.monotonic()
        launcher.wait_for_output("models exited unexpectedly (code -9)", 10)
        launcher.wait_for_output("models restarted", 40)
        restarted_after = time.monotonic() - killed
        taken_over = poll_run(launcher, token, topic, run, lambda r: r["attempts"] >= 2, 120)
        taken_over_after = time.monotonic() - killed
        done = poll_run(
            launcher, token, topic, run, lambda r: r["status"] in ("succeeded", "failed"), 240
        )
        done_after = time.monotonic() - killed

        assert done["status"] == "succeeded", done
        assert done["attempts"] == 2, done
        assert taken_over["attempts"] == 2
        assert wait_healthy(launcher)["http_status"] == 200  # the rest of the stack never stopped
    finally:
        assert launcher.stop_with_ctrl_c() == 0, launcher.read_output()
    output = "".join(launcher.output)
    assert "error:" not in output, output
    print(
        f"\nmodels worker killed mid-run: restarted after {restarted_after:.1f} s, run taken over "
        f"after {taken_over_after:.1f} s (heartbeat stale after {STALE_SECONDS} s), "
        f"succeeded after {done_after:.1f} s"
    )


def test_make_up_started_right_after_ctrl_c_waits_for_the_previous_one_then_starts(var_root):
    ports = (free_port(), free_port(), free_port())
    first = Launcher(var_root / "var", *ports)
    first.start()
    assert wait_healthy(first)["http_status"] == 200

    first.proc.send_signal(signal.SIGINT)
    lock = var_root / "var" / "up.lock"
    deadline = time.monotonic() + 1  # its signal handler says so at once
    while time.monotonic() < deadline and not (
        lock.exists() and lock.read_text().endswith("stopping\n")
    ):
        time.sleep(0.01)
    second = Launcher(var_root / "var", *ports)
    started = time.monotonic()
    try:
        second.start(timeout=180)
        ready_after = time.monotonic() - started
        assert first.proc.wait(5) == 0
        assert wait_healthy(second)["http_status"] == 200
    finally:
        if second.proc is not None and second.proc.poll() is None:
            second.stop_with_ctrl_c()
        if first.proc.poll() is None:
            first.stop_with_ctrl_c()
    output = "".join(second.output)
    assert f"A previous make up (pid {first.proc.pid}) is still stopping; waiting" in output
    assert "error:" not in output, output
    print(f"\nmake up right after Ctrl-C: waited, then ready after {ready_after:.1f} s")
