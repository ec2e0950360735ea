"""Live updates to browsers, sent after commit through the channel layer (Redis)."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def annotation_group(annotation_id: int) -> str:
    return f"annotation.{annotation_id}"


def project_group(project_id: int) -> str:
    return f"project.{project_id}"


def _send(group: str, message: dict) -> None:
    # Already committed: a broadcast that fails (Redis restarting) must not fail the request;
    # clients resynchronise from the version number on their next operation or reload.
    try:
        async_to_sync(get_channel_layer().group_send)(group, message)
    except Exception:
        logger.exception("broadcast to %s failed", group)


def annotation_applied(annotation_id: int, payload: dict) -> None:
    _send(annotation_group(annotation_id), {"type": "annotation.applied", "payload": payload})


def annotation_status(annotation_id: int, payload: dict) -> None:
    _send(annotation_group(annotation_id), {"type": "annotation.status", "payload": payload})


def project_progress(project_id: int, payload: dict) -> None:
    _send(project_group(project_id), {"type": "project.progress", "payload": payload})
