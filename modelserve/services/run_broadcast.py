"""Run progress and completion to the browsers of the topic's annotators (and admins)."""

from __future__ import annotations

from annotation.infra import broadcast


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
    broadcast.topic_event(run.topic_id, {"type": "run", **run_payload(run)})
