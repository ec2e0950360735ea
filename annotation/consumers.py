"""Websockets that carry live updates; they only relay messages sent after commit."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from annotation.selectors.access import is_admin, visible_annotations
from annotation.services.broadcast import annotation_group, project_group


@database_sync_to_async
def _may_watch_annotation(user, annotation_id: int) -> bool:
    return visible_annotations(user).filter(pk=annotation_id).exists()


class AnnotationConsumer(AsyncJsonWebsocketConsumer):
    """`ws/annotations/<id>/`: every change of one annotation (another tab's edits too)."""

    async def connect(self):
        user = self.scope.get("user")
        annotation_id = int(self.scope["url_route"]["kwargs"]["pk"])
        if user is None or not user.is_authenticated or not await _may_watch_annotation(user, annotation_id):
            await self.close(code=4403)
            return
        self.group = annotation_group(annotation_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def annotation_applied(self, event):
        await self.send_json({"type": "applied", **event["payload"]})

    async def annotation_status(self, event):
        await self.send_json({"type": "status", **event["payload"]})


class ProjectConsumer(AsyncJsonWebsocketConsumer):
    """`ws/projects/<id>/`: assignment progress for admins watching a project."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not is_admin(user):
            await self.close(code=4403)
            return
        self.group = project_group(int(self.scope["url_route"]["kwargs"]["pk"]))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def project_progress(self, event):
        await self.send_json({"type": "progress", **event["payload"]})
