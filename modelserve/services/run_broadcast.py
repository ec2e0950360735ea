"""Run progress and completion to the browsers of the topic's annotators (and admins)."""

from __future__ import annotations

from annotation.services import broadcast


def topic_group(topic_id: int) -> str:
    return f"topic.{topic_id}"


def run_payload(run) -> dict:
    return {
        "run": run.pk,
        "topic": run.topic_id,
        "backend": run.backend,
        "status": run.status,
        "progress": round(run.progress, 3),
        "message": run.message,
        "error": run.error.split("\n\n")[0],
        "attempts": run.attempts,
        "created_at": run.created_at.isoformat() if run.created_at else None,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "timings": run.timings,
    }


def run_changed(run) -> None:
    broadcast.send_to_group(
        topic_group(run.topic_id), {"type": "run.changed", "payload": run_payload(run)}
    )
