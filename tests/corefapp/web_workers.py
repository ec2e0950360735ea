"""Reaching each worker of a real multi-worker web server (the `web` fixture of
test_web_concurrency): the kernel spreads fresh connections, so open until each has one."""

from __future__ import annotations

import asyncio
import http.client
import time

import pytest
import websockets


def connection_per_worker(web, pids: set[int], timeout: float = 30) -> dict:
    """pid -> a kept-alive HTTP connection served by that worker."""
    connections: dict[int, http.client.HTTPConnection] = {}
    deadline = time.monotonic() + timeout
    while set(connections) != pids:
        assert time.monotonic() < deadline, "no connection reached every worker"
        conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=20)
        conn.connect()
        time.sleep(0.05)  # the worker accepts it
        owner = web.owner(conn.sock.getsockname()[1])
        if owner in pids and owner not in connections:
            connections[owner] = conn
        else:
            conn.close()
    return connections


async def socket_per_worker(web, pids: set[int], path: str, cookie: str, timeout: float = 30):
    """pid -> an open websocket served by that worker; extra sockets are closed."""
    sockets: dict[int, websockets.ClientConnection] = {}
    deadline = time.monotonic() + timeout
    while set(sockets) != pids:
        assert time.monotonic() < deadline, "no websocket reached every worker"
        socket = await websockets.connect(
            f"ws://127.0.0.1:{web.port}{path}",
            origin=f"http://localhost:{web.port}",
            additional_headers={"Cookie": cookie},
        )
        owner = web.owner(socket.local_address[1])
        if owner in pids and owner not in sockets:
            sockets[owner] = socket
        else:
            await socket.close()
    return sockets


async def close_all(sockets) -> None:
    await asyncio.gather(*(socket.close() for socket in sockets))


@pytest.fixture(scope="module")
def web_server(services, django_db_setup, tmp_path_factory):
    """One two-worker web server for a whole module (starting one takes seconds)."""
    from tests.corefapp.runtime.test_web_concurrency import Web

    server = Web(services, tmp_path_factory.mktemp("web") / "web.log")
    server.pids = server.wait_for_workers()
    yield server
    server.stop()


async def closed_within(socket, seconds: float) -> tuple[int | None, float]:
    """(close code, seconds it took) once the server closes `socket`; (None, seconds) if it is
    still open after `seconds` (messages that arrive meanwhile are skipped)."""
    started = time.monotonic()
    try:
        while (left := seconds - (time.monotonic() - started)) > 0:
            await asyncio.wait_for(socket.recv(), left)
    except websockets.ConnectionClosed:
        return socket.close_code, time.monotonic() - started
    except TimeoutError:
        pass
    return None, time.monotonic() - started
