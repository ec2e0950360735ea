"""The web server: WEB_CONCURRENCY Daphne processes serving one port, each restarted if it exits.

Run as `python -m corefapp.runtime.web -b HOST -p PORT` (make up and docker-compose do). One
Python process uses one core at most (the GIL), so a machine with more cores needs more
processes. This launcher binds the port itself, then starts the workers with `daphne --fd`.
On Linux each worker gets its own listening socket on the same port (SO_REUSEPORT) and the
kernel spreads new connections evenly over them; one socket shared by all workers lets the
first worker to wake accept a whole burst of connections, and with keep-alive those stay
with it (that was measured: no gain over one process). Elsewhere all workers share one
socket.

A worker that exits is restarted with the back-off of corefapp.runtime.supervisor, on the
socket it had: the launcher keeps the sockets open, so connections that arrive meanwhile
wait in that socket's queue and are answered once it is back, and the other workers go on
answering theirs. Websocket clients on different workers still hear each other's
operations: broadcasts go through the channel layer (Redis). SIGTERM or SIGINT stops the
workers, then the launcher. The workers share the launcher's process group and its log
(stdout), so stopping make up's web child stops them all.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import socket
import sys
import time
from pathlib import Path
from types import FrameType

from corefapp.private_files import private_umask
from corefapp.runtime.commands import daphne_command
from corefapp.runtime.supervisor import REPORT_FD, Child, report

MAX_DEFAULT_WORKERS = 8


def default_concurrency() -> int:
    """Half the cores this process may use, at least 1 and at most MAX_DEFAULT_WORKERS.

    make up runs PostgreSQL, Redis and Celery on the same cores, and one worker keeps about
    one core busy at full load. Measured on 2 cores (docs/throughput.md): one worker gave more
    operations per second than two, which spend ~25% more CPU per operation and had no idle
    core to gain."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores // 2, MAX_DEFAULT_WORKERS))


def web_concurrency(environ: dict[str, str] | None = None) -> int:
    value = (os.environ if environ is None else environ).get("WEB_CONCURRENCY", "").strip()
    if not value:
        return default_concurrency()
    try:
        count = int(value)
    except ValueError:
        raise SystemExit(f"error: WEB_CONCURRENCY must be a whole number, not {value!r}") from None
    if count < 1:
        raise SystemExit(f"error: WEB_CONCURRENCY must be 1 or more, not {count}")
    return count


def _balanced() -> bool:
    """Whether the kernel spreads connections over sockets bound with SO_REUSEPORT (Linux)."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def listening_sockets(host: str, port: int, count: int) -> list[socket.socket]:
    """`count` IPv4 sockets listening on host:port (one socket, shared, where the kernel does
    not balance). An address in use raises OSError before any worker starts."""
    own = count if _balanced() and count > 1 else 1
    sockets = []
    try:
        for _ in range(own):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if own > 1:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind((host, port))
            sock.listen(1024)
            sock.set_inheritable(True)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets * count if own == 1 else sockets


def _die_with_parent() -> None:
    """In a worker before it runs Daphne (Linux): SIGTERM when the launcher dies, so a worker
    never outlives it and keeps the port."""
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _worker_command(**where) -> list[str]:
    """The Daphne command, with the daphne of this launcher's Python where there is one."""
    argv = daphne_command(**where)
    beside = Path(sys.executable).with_name("daphne")
    return [str(beside) if beside.exists() else argv[0], *argv[1:]]


def _say(line: str) -> None:
    print(f"[web] {line}", flush=True)


def _say_and_report(line: str) -> None:
    """A worker's exit or restart: in web.log, and on make up's output like its children's."""
    _say(line)
    report(line)


def run(host: str, port: int, count: int) -> int:
    stopping = False

    def request_stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
    try:
        socket.inet_aton(host)
    except OSError:
        # Daphne adopts IPv4 sockets only (twisted's fd endpoint): an IPv6 or named host is
        # served by one Daphne that binds it itself.
        _say(f"{host} is not an IPv4 address: one worker binds it (WEB_CONCURRENCY ignored)")
        argv = _worker_command(host=host, port=port)
        os.execv(argv[0], argv) if os.path.isabs(argv[0]) else os.execvp(argv[0], argv)
    try:
        sockets = listening_sockets(host, port, count)
    except OSError as error:
        print(f"error: cannot listen on {host}:{port}: {error}", file=sys.stderr, flush=True)
        return 2
    worker_env = {k: v for k, v in os.environ.items() if k != REPORT_FD}  # not theirs
    workers = [
        Child(
            f"web worker {i + 1}",
            _worker_command(fd=sock.fileno()),
            worker_env,
            Path.cwd(),
            Path.cwd(),
            inherit_output=True,
            own_session=False,
            pass_fds=(sock.fileno(),),
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
        for i, sock in enumerate(sockets)
    ]
    for worker in workers:
        worker.start()
    pids = ", ".join(str(w.proc.pid) for w in workers if w.proc is not None)
    _say(f"{count} worker(s) on {host}:{port} (WEB_CONCURRENCY), pids {pids}")
    while not stopping:
        for worker in workers:
            worker.supervise(_say_and_report)
        time.sleep(0.2)
    for worker in workers:
        worker.terminate()
    deadline = time.monotonic() + 15
    for worker in workers:
        worker.wait_or_kill(deadline)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m corefapp.runtime.web")
    parser.add_argument("-b", "--bind", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, default=8000)
    args = parser.parse_args(argv)
    private_umask()  # the workers inherit it (corefapp/private_files.py)
    return run(args.bind, args.port, web_concurrency())


if __name__ == "__main__":
    sys.exit(main())
