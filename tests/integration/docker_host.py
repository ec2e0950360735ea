"""A Docker daemon for the image test, and the containers it starts.

The test uses a real daemon: one already running, or, as root, Debian's `dockerd`, started
here with no bridge and no iptables rules (containers run on the host network only, so they
reach the test's PostgreSQL and Redis on the loopback and nothing else) and stopped after.
Without either the test fails with one line saying how to get Docker, as the browser tests do
for Chromium.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

HOW_TO_GET_DOCKER = (
    "Docker is needed for the image test: run the tests as root with Debian's docker.io "
    "installed (apt-get install docker.io; make test installs it as root), or start a Docker "
    "daemon this user may use"
)
# The legacy builder: Debian's docker.io has no buildx plugin, and the classic build of
# this two-stage Dockerfile needs none.
BUILD_ENV = {**os.environ, "DOCKER_BUILDKIT": "0"}


def docker(*args: str, timeout: float = 120, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["docker", *args],
        check=check,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=BUILD_ENV,
    )


def _daemon_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        return (
            docker("info", "--format", "{{.ServerVersion}}", timeout=10, check=False).returncode
            == 0
        )
    except subprocess.TimeoutExpired:
        return False


@contextmanager
def docker_daemon() -> Iterator[None]:
    """A daemon that answers for the block: the running one, or one started here."""
    if _daemon_answers():
        yield
        return
    dockerd = shutil.which("dockerd")
    if os.geteuid() != 0 or dockerd is None or shutil.which("docker") is None:
        pytest.fail(HOW_TO_GET_DOCKER, pytrace=False)
    with tempfile.TemporaryDirectory(prefix="dockerd-") as work:
        log_path = Path(work) / "dockerd.log"
        with log_path.open("w") as log:
            daemon = subprocess.Popen(
                [dockerd, "--bridge=none", "--iptables=false", "--ip6tables=false"],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            deadline = time.monotonic() + 60
            while not _daemon_answers():
                if daemon.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(
                        f"dockerd did not start: {log_path.read_text()[-2000:]}", pytrace=False
                    )
                time.sleep(0.5)
            yield
        finally:
            daemon.terminate()
            try:
                daemon.wait(30)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()


def image_exists(tag: str) -> bool:
    return docker("image", "inspect", tag, timeout=30, check=False).returncode == 0


class Containers:
    """The containers one test starts, each named with this run's prefix, all removed by
    `remove_all` whatever happened (the test calls it in a finally)."""

    def __init__(self, image: str, prefix: str):
        self.image = image
        self.prefix = prefix
        self.names: list[str] = []

    def run(
        self,
        role: str,
        command: list[str],
        *,
        env: dict[str, str],
        volumes: dict[Path, str],
    ) -> str:
        name = f"{self.prefix}-{role}"
        self.names.append(name)
        options = ["--detach", "--name", name, "--network", "host"]
        for key, value in env.items():
            options += ["--env", f"{key}={value}"]
        for source, target in volumes.items():
            options += ["--volume", f"{source}:{target}"]
        docker("run", *options, self.image, *command, timeout=60)
        return name

    def wait_exit(self, name: str, timeout: float) -> int:
        answer = docker("wait", name, timeout=timeout)
        return int(answer.stdout.strip())

    def running(self, name: str) -> bool:
        state = docker("inspect", "--format", "{{.State.Running}}", name, check=False)
        return state.stdout.strip() == "true"

    def logs(self, name: str) -> str:
        answer = docker("logs", name, check=False)
        return answer.stdout + answer.stderr

    def all_logs(self, tail: int = 3000) -> str:
        return "\n".join(f"--- {name}:\n{self.logs(name)[-tail:]}" for name in self.names)

    def remove_all(self) -> list[str]:
        """Removes every container started here; answers the names still present after."""
        if self.names:
            docker("rm", "--force", "--volumes", *self.names, timeout=120, check=False)
        listed = docker("ps", "--all", "--format", "{{.Names}}", check=False).stdout.split()
        return [name for name in listed if name.startswith(self.prefix)]
