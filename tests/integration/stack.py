"""Drive `make up`'s launcher from tests: start it, read what it prints, call its web server,
stop it with Ctrl-C."""

from __future__ import annotations

import atexit
import functools
import http.cookiejar
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psutil

REPO = Path(__file__).resolve().parents[2]
DEMO_PASSWORD = "integration-pw"
# The stacks' default ChEMU models train from this many snippets of the ChEMU-Ref training file.
STACK_CHEMU_SNIPPETS = 24


@functools.cache
def stack_models() -> tuple[Path, Path]:
    """(MODELS_DIR, CHEMU_TRAIN_FILE) for the stacks this pytest process starts: one models
    folder for all of them, and a small training file. With the whole file, every first start
    of a stack on a fresh clone trained the real link model and began the real tagger's
    training in the background (minutes of both cores, stopped with the stack), under the
    other tests; what a first start does is the same on 24 snippets. The full-size training
    is measured by `make bench` (mentions) and tested in tests/modelserve."""
    root = Path(tempfile.mkdtemp(prefix="stack-models-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    small = chemu_train_head(root / "chemu-train-head.jsonlines")
    (root / "models").mkdir()
    return root / "models", small


def chemu_train_head(path: Path) -> Path:
    """Write the first STACK_CHEMU_SNIPPETS snippets of the ChEMU-Ref training file to `path`:
    what a first start trains on in tests, the same steps as on the whole file in seconds."""
    from django.conf import settings

    with Path(settings.CHEMU_TRAIN_FILE).open(encoding="utf-8") as full:
        head = list(itertools.islice(full, STACK_CHEMU_SNIPPETS))
    path.write_text("".join(head), encoding="utf-8")
    return path


class WebClient:
    """Requests to a web server of the application on the loopback, as the demo accounts."""

    port: int
    password: str = DEMO_PASSWORD

    def get_json(self, path: str) -> tuple[int, dict]:
        return self.api("GET", path)

    def api(self, method: str, path: str, body=None, token: str | None = None):
        """(status, JSON answer) of one request to the stack's web server."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json"}
            | ({"Authorization": f"Token {token}"} if token else {}),
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def token(self, username: str) -> str:
        status, answer = self.api(
            "POST", "/api/auth/token/", {"username": username, "password": self.password}
        )
        assert status == 200, answer
        return answer["token"]

    def session_cookie(self, username: str) -> str:
        """A browser's `Cookie` header after signing in with the session API."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        base = f"http://127.0.0.1:{self.port}"
        opener.open(f"{base}/api/auth/csrf/", timeout=10).close()
        csrf = next(str(c.value) for c in jar if c.name == "csrftoken")
        opener.open(
            urllib.request.Request(
                f"{base}/api/auth/login/",
                data=json.dumps({"username": username, "password": self.password}).encode(),
                headers={"Content-Type": "application/json", "X-CSRFToken": csrf},
            ),
            timeout=10,
        ).close()
        return "; ".join(f"{c.name}={c.value}" for c in jar)


class Launcher(WebClient):
    def __init__(self, var_dir: Path, port: int, pg_port: int, redis_port: int, extra_env=None):
        self.port = port
        self.var_dir = var_dir
        env = {
            k: v
            for k, v in os.environ.items()
            # The test session's servers and storage folder: `make up` uses its own var/.
            if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "STORAGE_DIR")
        }
        models_dir, chemu_train_file = stack_models()
        env.update(
            PORT=str(port),
            EMBEDDED_PG_PORT=str(pg_port),
            EMBEDDED_REDIS_PORT=str(redis_port),
            COREFAPP_VAR_DIR=str(var_dir),
            DEMO_PASSWORD=DEMO_PASSWORD,
            MODELS_DIR=str(models_dir),
            CHEMU_TRAIN_FILE=str(chemu_train_file),
            **(extra_env or {}),
        )
        self.env = env
        self.output: list[str] = []
        # The launcher's Popen from start() on (Any: every other method runs after start()).
        self.proc: Any = None

    def start(self, timeout: float = 300) -> float:
        started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "corefapp.runtime.up"],
            cwd=REPO,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        os.set_blocking(self.proc.stdout.fileno(), False)
        while time.monotonic() - started < timeout:
            line = self.proc.stdout.readline()
            if line:
                self.output.append(line)
                if "Ctrl-C stops everything" in line:
                    return time.monotonic() - started
            elif self.proc.poll() is not None:
                break
            else:
                time.sleep(0.1)
        raise AssertionError(
            "the stack did not start:\n" + "".join(self.output) + self._read_rest()
        )

    def read_output(self) -> str:
        """Everything the launcher printed so far (reads what is new without blocking)."""
        while True:
            try:
                line = self.proc.stdout.readline()
            except (TypeError, ValueError):
                break
            if not line:
                break
            self.output.append(line)
        return "".join(self.output)

    def wait_for_output(self, text: str, timeout: float, count: int = 1) -> float:
        """Seconds until `text` appears in the launcher's output (`count` times)."""
        started = time.monotonic()
        while self.read_output().count(text) < count:
            if time.monotonic() - started > timeout:
                raise AssertionError(
                    f"no {text!r} within {timeout} s:\n{self.read_output()}{self.log_tails()}"
                )
            time.sleep(0.1)
        return time.monotonic() - started

    def log_tails(self, characters: int = 2000) -> str:
        """The end of each log under var/log: a line such as "backup ... failed; see
        var/log/backup.log" names a file the test's temporary folder takes with it."""
        logs = sorted((self.var_dir / "log").glob("*.log"))
        return "".join(
            f"\n--- {path.name} (last {characters} characters)\n"
            + path.read_text(errors="replace")[-characters:]
            for path in logs
        )

    def _read_rest(self) -> str:
        try:
            return self.proc.stdout.read() or ""
        except (TypeError, ValueError):
            return ""

    def descendants(self) -> list[psutil.Process]:
        return psutil.Process(self.proc.pid).children(recursive=True)

    def stop_with_ctrl_c(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        code = self.proc.wait(90)
        self.output.append(self._read_rest())
        return code

    def redis_password(self) -> str:
        return (self.var_dir / "redis.password").read_text().strip()


def running_process(pid: int) -> bool:
    """A zombie has exited; it only waits for its parent (here often PID 1) to reap it."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def child_pid(launcher: Launcher, marker: str) -> int:
    """The launcher's own child whose command line holds `marker` (`models@%h`: the Celery
    main process of the models worker; `runtime.web`: the web server's supervisor)."""
    for child in psutil.Process(launcher.proc.pid).children():
        if marker in " ".join(child.cmdline()):
            return child.pid
    raise AssertionError(f"no {marker!r} among the launcher's children")


def web_worker_pid(launcher: Launcher) -> int:
    """A Daphne worker of the web server (a child of `corefapp.runtime.web`)."""
    return psutil.Process(child_pid(launcher, "runtime.web")).children()[0].pid


def redis_pid(launcher: Launcher) -> int:
    for process in launcher.descendants():
        if "redis-server" in " ".join(process.cmdline()) or process.name().startswith("redis"):
            return process.pid
    raise AssertionError("no Redis among the launcher's processes")


def postmaster_pid(var_dir: Path) -> int | None:
    pid_file = var_dir / "postgres" / "postmaster.pid"
    return int(pid_file.read_text().split()[0]) if pid_file.exists() else None


def wait_healthy(launcher: WebClient, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        try:
            status, body = launcher.get_json("/healthz")
        except OSError as error:  # not listening yet, or too busy starting to answer
            status, body = 0, {"error": str(error)}
        if status == 200 or time.monotonic() > deadline:
            return body | {"http_status": status}
        time.sleep(0.5)
