"""A real Celery worker process for tests, on the session's Redis and test database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from modelserve.queues import model_queues

REPO = Path(__file__).resolve().parents[1]
LOGS = REPO / "test-artifacts" / "logs"


class Worker:
    def __init__(
        self,
        *,
        database_url: str,
        redis_url: str,
        secret_key: str,
        queues: str = ",".join(model_queues()),
        name: str = "models-test",
        extra_env: dict | None = None,
    ) -> None:
        LOGS.mkdir(parents=True, exist_ok=True)
        self.name = f"{name}-{time.monotonic_ns()}"
        self.log_path = LOGS / f"{self.name}.log"
        env = dict(
            os.environ,
            DATABASE_URL=database_url,
            REDIS_URL=redis_url,
            SECRET_KEY=secret_key,
            DEBUG="false",
            CONN_MAX_AGE="0",
            HF_HUB_OFFLINE="1",
            TRANSFORMERS_OFFLINE="1",
            DJANGO_SETTINGS_MODULE="corefapp.settings",
            **(extra_env or {}),
        )
        celery = str(Path(sys.executable).with_name("celery"))
        with open(self.log_path, "w") as log:  # the child keeps its own copy
            self.process = subprocess.Popen(
                [
                    celery,
                    "-A",
                    "corefapp",
                    "worker",
                    "-Q",
                    queues,
                    "-n",
                    f"{self.name}@%h",
                    "--concurrency",
                    "1",
                    "--loglevel",
                    "INFO",
                    "--without-gossip",
                    "--without-mingle",
                ],
                cwd=REPO,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float = 60) -> None:
        """Returns once the worker consumes; else stops it and raises. A worker left behind by
        a set-up that failed would go on answering pings and taking tasks from the session's
        Redis for every later test (the health page's "no worker" tests saw it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker exited:\n{self.log()}")
            if "ready." in self.log():
                return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the worker did not start within {timeout} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL the worker and its pool processes, as a crash or an OOM kill would."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
