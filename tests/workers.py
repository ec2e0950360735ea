"""A real Celery worker process for tests, on the session's Redis and test database, and the
helpers the killed-worker tests of every job kind share."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TypeVar

from django.conf import settings
from django.db import connection

from foundation.jobs.models import Job
from modelserve.queues import model_queues

# A killed worker's message is redelivered after 3 s (kombu scanning every second, not every
# 100 s), and its job taken over once its heartbeat is 4 s old.
FAST_REDELIVERY = {
    "CELERY_VISIBILITY_TIMEOUT": "3",
    "CELERY_UNACKED_RESTORE_SECONDS": "1",
    "CELERY_UNACKED_RESTORE_THROTTLE": "1",
    "SUGGEST_HEARTBEAT_STALE_SECONDS": "4",
}

J = TypeVar("J", bound=Job)

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


def start_worker(
    services, *, queues: str | None = None, name: str = "models-test", **extra_env: str
) -> Worker:
    """A worker on the test database and the session's Redis, ready: the model queues by
    default, or `queues` ("default" for imports and releases)."""
    worker = Worker(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=services.redis_url,
        secret_key=settings.SECRET_KEY,
        queues=queues or ",".join(model_queues()),
        name=name,
        extra_env=extra_env,
    )
    worker.wait_ready()
    return worker


def wait_for(job: J, statuses: set[str], timeout: float = 180, step: float = 0.3) -> J:
    """The job's row, fresh, once it is in one of `statuses` (any job kind of foundation.jobs)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in statuses:
            return job
        time.sleep(step)
    raise AssertionError(
        f"{type(job).__name__} {job.pk} still {job.status} ({job.message}) after {timeout} s"
    )
