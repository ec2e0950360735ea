"""Websockets that carry live updates; they only relay messages sent after commit.

Every socket needs a signed-in user (refused with 4403 otherwise, before it is accepted).
Access is checked again whenever the services say the user's access changed (an assignment
removed, admin rights or the active flag changed, a new password, a sign-out) or who may
watch an annotation changed (submitted work reopened, which its adjudicators no longer see):
a socket that lost it is closed with 4403, so nobody keeps hearing live edits they may no
longer see.
"""

from __future__ import annotations

import json
from importlib import import_module

from channels.auth import get_user
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from annotation.api.parsers import located_refusal, refusal_message
from annotation.selectors.access import visible_annotations
from foundation.broadcast import annotation_group, project_group, topic_group, user_group
from foundation.roles import is_admin


@database_sync_to_async
def _watchable_topic(user, annotation_id: int) -> int | None:
    """The annotation's topic id if the user may watch it, else None."""
    return (
        visible_annotations(user)
        .filter(pk=annotation_id)
        .values_list("topic_id", flat=True)
        .first()
    )


def _stored_session(scope):
    """The socket's session as the store holds it now. The scope's own was read once when the
    socket opened and is kept in memory: it would still say "signed in" after a sign-out
    deleted the stored session."""
    engine = import_module(settings.SESSION_ENGINE)
    return engine.SessionStore(session_key=scope["session"].session_key)


@database_sync_to_async
def _reloaded(scope):
    """A socket without a session (made in-process by a test): its user as stored now."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import AnonymousUser

    user_id = getattr(scope.get("user"), "pk", None)
    if user_id is None:
        return AnonymousUser()
    fresh = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    return fresh or AnonymousUser()


def signed_in(user) -> bool:
    return user is not None and user.is_authenticated


class JsonConsumer(AsyncJsonWebsocketConsumer):
    """A frame that is not a JSON object (binary, not JSON, nested too deep) is answered with
    an error message and otherwise ignored: a client's mistake never closes the socket with a
    server error.

    A subclass joins its groups with `join` (which adds the user's own group) and says in
    `still_allowed` whether a user may still watch what the socket carries."""

    groups_joined: list[str]

    async def join(self, *groups: str) -> None:
        user = self.scope["user"]
        self.groups_joined = [*groups, user_group(user.pk)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)

    async def disconnect(self, code):
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def still_allowed(self, user) -> bool:
        return signed_in(user)

    async def access_changed(self, event):
        """The user as stored now (active, with the password this session signed in with,
        the session not signed out)."""
        if "session" in self.scope:
            user = await get_user({"session": _stored_session(self.scope)})
        else:
            user = await _reloaded(self.scope)
        if not (signed_in(user) and await self.still_allowed(user)):
            await self.close(code=4403)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        try:
            content = json.loads(text_data) if text_data is not None else None
        except (ValueError, RecursionError):
            content = None
        if not isinstance(content, dict):
            await self.send_json(
                {"type": "error", "error": "invalid_message", "message": "Send a JSON object."}
            )
            return
        # As every HTTP body: a lone surrogate could not even pass the channel layer (msgpack
        # encodes UTF-8), and the socket closed with a server error.
        found = located_refusal(content)
        if found:
            await self.send_json(
                {"type": "error", "error": "invalid_message", "message": refusal_message(found)}
            )
            return
        await self.receive_json(content, **kwargs)


class AnnotationConsumer(JsonConsumer):
    """`ws/annotations/<id>/`: every change of one annotation (another tab's edits too)."""

    async def connect(self):
        user = self.scope.get("user")
        annotation_id = int(self.scope["url_route"]["kwargs"]["pk"])
        topic_id = None
        if signed_in(user):
            topic_id = await _watchable_topic(user, annotation_id)
        if topic_id is None:
            await self.close(code=4403)
            return
        self.annotation_id = annotation_id
        # The annotation's own changes, and the topic's suggestion runs.
        await self.join(annotation_group(annotation_id), topic_group(topic_id))
        await self.accept()

    async def still_allowed(self, user) -> bool:
        return await _watchable_topic(user, self.annotation_id) is not None

    async def topic_event(self, event):
        """News about the topic from an app built on the core, relayed as it was sent."""
        await self.send_json(event["payload"])

    async def annotation_applied(self, event):
        await self.send_json({"type": "applied", **event["payload"]})

    async def annotation_status(self, event):
        await self.send_json({"type": "status", **event["payload"]})


class ProjectConsumer(JsonConsumer):
    """`ws/projects/<id>/`: assignment progress for admins watching a project."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not is_admin(user):
            await self.close(code=4403)
            return
        await self.join(project_group(int(self.scope["url_route"]["kwargs"]["pk"])))
        await self.accept()

    async def still_allowed(self, user) -> bool:
        return is_admin(user)

    async def project_progress(self, event):
        await self.send_json({"type": "progress", **event["payload"]})
