"""Run progress and completion to the browsers of the topic's annotators (and admins)."""

from __future__ import annotations

from foundation import broadcast
from modelserve.selectors import run_payload


def run_changed(run) -> None:
    broadcast.topic_event(run.topic_id, {"type": "run", **run_payload(run)})
