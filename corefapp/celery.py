"""The Celery application: the broker is Redis (REDIS_URL), tasks live in the apps."""

import os

from celery import Celery
from celery.signals import celeryd_init

from corefapp.private_files import private_umask

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corefapp.settings")

app = Celery("corefapp")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@celeryd_init.connect
def _private_files(**kwargs) -> None:
    """A worker (and its pool, forked after) writes private files, as make up's children do:
    trained models and downloaded copies are 0600 in 0700 folders (corefapp/private_files.py)."""
    private_umask()


@app.task(name="corefapp.ping")
def ping(payload: str) -> str:
    """Round trip through the broker and the result backend, used by health checks and tests."""
    return f"pong:{payload}"
