"""Open websockets: counted between the consumer's accept and the end of its connection."""

from __future__ import annotations

from corefapp.metrics.instruments import OPEN_WEBSOCKETS


class WebsocketCounter:
    """ASGI middleware around the websocket router."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        accepted = False

        async def counting_send(message):
            nonlocal accepted
            if message["type"] == "websocket.accept" and not accepted:
                accepted = True
                OPEN_WEBSOCKETS.inc()
            await send(message)

        try:
            return await self.app(scope, receive, counting_send)
        finally:
            if accepted:
                OPEN_WEBSOCKETS.dec()
