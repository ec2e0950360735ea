"""The Celery application: the broker is Redis (REDIS_URL), tasks live in the apps."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corefapp.settings")

app = Celery("corefapp")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="corefapp.ping")
def ping(payload: str) -> str:
    """Round trip through the broker and the result backend, used by health checks and tests."""
    return f"pong:{payload}"
