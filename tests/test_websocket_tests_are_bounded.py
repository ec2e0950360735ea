"""Every test module that opens websockets has a short pytest-timeout of its own, and the
in-process ones go through tests/sockets.py, which always disconnects (a refused connect
too): a socket left to the event loop's shutdown can hang the run."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
OPENS_SOCKETS = re.compile(
    r"websockets\.connect\(|\bcommunicator\(|socket_per_worker\(|WebsocketCommunicator\("
)


def socket_modules() -> list[Path]:
    return sorted(
        path
        for path in TESTS.rglob("test_*.py")
        if path != Path(__file__) and OPENS_SOCKETS.search(path.read_text())
    )


def test_websocket_test_modules_are_found():
    names = {path.name for path in socket_modules()}
    assert {"test_live_updates.py", "test_security.py", "test_web_concurrency.py"} <= names


def test_every_websocket_test_module_sets_a_timeout_of_its_own():
    unbounded = [
        str(path.relative_to(TESTS))
        for path in socket_modules()
        if "pytest.mark.timeout(" not in path.read_text()
    ]
    assert unbounded == []


def test_in_process_sockets_are_made_only_by_the_helper_that_disconnects_them():
    direct = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("*.py")
        if path.name != "sockets.py"
        and path != Path(__file__)
        and "WebsocketCommunicator(" in path.read_text()
    ]
    assert direct == []
