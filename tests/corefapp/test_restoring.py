"""While a restore holds its lock (corefapp/restoring.py) every write answers a JSON 503
"restoring" at once and reads go on; a restore does not start while a write still runs."""

from __future__ import annotations

import threading

import pytest

from corefapp.backups import pg_tools
from corefapp.restoring import RESTORE_LOCK, writes_refused

pytestmark = pytest.mark.django_db(transaction=True)


def test_writes_are_refused_while_a_restore_holds_the_lock_and_reads_go_on(admin_client):
    client = admin_client

    with writes_refused(pg_tools.connect):
        refused = client.post("/api/projects/", {"name": "during"}, format="json")
        read = client.get("/api/projects/")

    assert refused.status_code == 503
    assert refused.json()["error"] == "restoring"
    assert refused["Retry-After"]
    assert read.status_code == 200
    after = client.post("/api/projects/", {"name": "after"}, format="json")
    assert after.status_code == 201, after.json()


def test_a_restore_gives_up_while_a_write_still_runs():
    with pg_tools.connect() as writer:  # a write request's hold on the lock, left running
        writer.execute("SELECT pg_advisory_lock_shared(%s)", [RESTORE_LOCK])
        with (
            pytest.raises(TimeoutError, match="nothing was restored"),
            writes_refused(pg_tools.connect, wait_seconds=0.3),
        ):
            pass
    # Once it ended, a restore takes the lock (and lets it go with its block).
    entered = threading.Event()
    with writes_refused(pg_tools.connect, wait_seconds=1):
        entered.set()
    assert entered.is_set()
