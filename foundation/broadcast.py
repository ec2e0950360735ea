"""Live updates to browsers, sent after commit through the channel layer (Redis).

Sending happens on one background thread with its own event loop: a group send costs a few
Redis round trips plus, from synchronous code, an event loop hand-off (~7 ms measured per
send), which the annotator's request should not wait for. One thread keeps the messages of an
annotation in commit order. Broadcasts are best effort by design: a message lost to a Redis
outage or a process exit is repaired by the clients, which compare versions when their socket
reconnects, on their next operation or on reload. So a failed send is logged, never raised,
and never waits long: with Redis hung, later messages are not held behind a stuck one.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading

from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

SEND_TIMEOUT_SECONDS = 2.0

_queue: queue.SimpleQueue[tuple[str | None, dict | threading.Event]] = queue.SimpleQueue()
_thread: threading.Thread | None = None
_thread_lock = threading.Lock()


def annotation_group(annotation_id: int) -> str:
    return f"annotation.{annotation_id}"


def project_group(project_id: int) -> str:
    return f"project.{project_id}"


def topic_group(topic_id: int) -> str:
    """Whoever watches an annotation of the topic: news about the topic itself (an app built
    on the core, such as the suggestions app, sends its run progress here)."""
    return f"topic.{topic_id}"


def user_group(user_id: int) -> str:
    """Every socket a user has open: told when what they may watch may have changed."""
    return f"user.{user_id}"


def _run_sender() -> None:
    loop = asyncio.new_event_loop()
    layer = get_channel_layer()
    failing = False
    while True:
        group, item = _queue.get()
        if isinstance(item, threading.Event):  # a flush marker: all queued before it is sent
            item.set()
            continue
        try:
            loop.run_until_complete(
                asyncio.wait_for(layer.group_send(group, item), SEND_TIMEOUT_SECONDS)
            )
        except Exception as error:
            # The first failure of an outage with its traceback, the rest in one line each.
            if failing:
                logger.warning("broadcast to %s failed: %r", group, error)
            else:
                logger.exception("broadcast to %s failed (live updates are best effort)", group)
            failing = True
        else:
            if failing:
                logger.warning("broadcasts are delivered again")
            failing = False


def _ensure_sender() -> None:
    global _thread
    if _thread is None or not _thread.is_alive():
        with _thread_lock:
            if _thread is None or not _thread.is_alive():
                _thread = threading.Thread(target=_run_sender, name="broadcast", daemon=True)
                _thread.start()


def send_to_group(group: str, message: dict) -> None:
    _ensure_sender()
    _queue.put((group, message))


def flush(timeout: float = 5.0) -> bool:
    """Wait until every broadcast queued so far was handed to the channel layer."""
    _ensure_sender()
    done = threading.Event()
    _queue.put((None, done))
    return done.wait(timeout)


def annotation_applied(annotation_id: int, payload: dict) -> None:
    send_to_group(
        annotation_group(annotation_id), {"type": "annotation.applied", "payload": payload}
    )


def annotation_status(annotation_id: int, payload: dict) -> None:
    send_to_group(
        annotation_group(annotation_id), {"type": "annotation.status", "payload": payload}
    )


def project_progress(project_id: int, payload: dict) -> None:
    send_to_group(project_group(project_id), {"type": "project.progress", "payload": payload})


def topic_event(topic_id: int, payload: dict) -> None:
    """`payload` (with its own "type") to everyone watching an annotation of the topic."""
    send_to_group(topic_group(topic_id), {"type": "topic.event", "payload": payload})


def access_changed(user_id: int) -> None:
    """The user's assignments, role, active flag, password or sessions changed: each of their
    open sockets checks its access again and closes itself if it is gone."""
    send_to_group(user_group(user_id), {"type": "access.changed"})


def annotation_access_changed(annotation_id: int) -> None:
    """Who may watch the annotation changed (a submitted one reopened: an adjudicator no
    longer may): every socket watching it checks its access again, as above."""
    send_to_group(annotation_group(annotation_id), {"type": "access.changed"})
