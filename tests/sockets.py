"""In-process websockets for tests (channels' WebsocketCommunicator), always disconnected.

A refused connect must be disconnected too: otherwise the application task is left to the
event loop's shutdown, whose single cancel is sometimes lost inside channels-redis's blocking
receive (BZPOPMIN), and the test hangs (2 hangs in 300 runs; none in 600 with a disconnect).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

# pytest-timeout for a module that opens websockets: a hang fails fast instead of holding the
# whole run for the global 600 s.
WEBSOCKET_TEST_TIMEOUT = 60


@asynccontextmanager
async def communicator(path: str, user) -> AsyncIterator:
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from corefapp.routing import websocket_urlpatterns

    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    socket.scope["user"] = user
    try:
        yield socket
    finally:
        await socket.disconnect()
