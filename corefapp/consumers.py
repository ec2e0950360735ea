"""A websocket that answers pings through the channel layer, for health checks and tests."""

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class PingConsumer(AsyncJsonWebsocketConsumer):
    """Echoes {"ping": x} as {"pong": x} after a round trip through the channel layer.

    The reply travels through Redis (a group send to this socket's own group), so a
    working answer proves the layer works, not just the socket.
    """

    async def connect(self):
        self.group = f"ping.{self.channel_name.replace('!', '-')}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        await self.channel_layer.group_send(
            self.group, {"type": "ping.reply", "value": content.get("ping")}
        )

    async def ping_reply(self, event):
        await self.send_json({"pong": event["value"]})
