"""A websocket that answers pings through the channel layer, for health checks and tests; and
the answer to a websocket path no route names."""

from channels.generic.websocket import AsyncWebsocketConsumer

from annotation.consumers import JsonConsumer, signed_in


class PingConsumer(JsonConsumer):
    """Echoes {"ping": x} as {"pong": x} after a round trip through the channel layer.

    The reply travels through Redis (a group send to this socket's own group), so a
    working answer proves the layer works, not just the socket. Signed-in users only.
    """

    async def connect(self):
        if not signed_in(self.scope.get("user")):
            await self.close(code=4403)
            return
        self.group = f"ping.{self.channel_name.replace('!', '-')}"
        await self.join(self.group)
        await self.accept()

    async def receive_json(self, content, **kwargs):
        await self.channel_layer.group_send(
            self.group, {"type": "ping.reply", "value": content.get("ping")}
        )

    async def ping_reply(self, event):
        await self.send_json({"pong": event["value"]})


class NoRouteConsumer(AsyncWebsocketConsumer):
    """Any /ws/ path no route names (`/ws/annotations/abc/`): refused with 4404."""

    async def connect(self):
        await self.close(code=4404)
