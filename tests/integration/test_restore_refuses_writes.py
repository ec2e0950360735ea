"""A restore loses no acknowledged write: writing clients keep sending
edits through a real two-worker web server while `manage.py restore --replace` runs as its
own process. Writes are refused with a JSON 503 "restoring" while the data is replaced, and
every write acknowledged from the first refusal on is in the restored instance: the only
acknowledged writes it lacks came before the restore began (after the backup, which is what
a restore takes back)."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.authtoken.models import Token

from annotation.models import Operation
from annotation.services.operations import annotation_operation_apply
from tests.corefapp.web_workers import web_server  # noqa: F401 (the fixture)
from tests.factories import UserFactory, assign, make_topic, mention_ids

REPO = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

WRITERS = 4


@dataclass
class Writer:
    """One annotator sending note changes one after another, as fast as answers come."""

    port: int
    token: str
    annotation: int
    cluster: int
    version: int
    acked: list[tuple[str, float]] = field(default_factory=list)  # (note, when)
    refused: list[float] = field(default_factory=list)
    refusals: list[tuple[int, dict, str | None]] = field(default_factory=list)
    other: list[str] = field(default_factory=list)

    def acked_since(self, moment: float) -> bool:
        return bool(self.acked) and self.acked[-1][1] > moment

    def run(self, stop: threading.Event) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        n = 0
        while not stop.is_set():
            note = f"writer {self.annotation} note {n}"
            body = {
                "expected_version": self.version,
                "operation": {"op": "set_note", "cluster": self.cluster, "note": note},
            }
            headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
            try:
                conn.request(
                    "POST",
                    f"/api/annotations/{self.annotation}/operations/",
                    json.dumps(body),
                    headers,
                )
                response = conn.getresponse()
                status, answer = response.status, json.loads(response.read() or b"null")
            except (OSError, http.client.HTTPException, ValueError) as error:
                self.other.append(repr(error))
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                time.sleep(0.1)
                continue
            if status == 200:
                self.acked.append((note, time.monotonic()))
                self.version = answer["version"]
                n += 1
            elif status == 409:  # the restore took the version back to the backup's
                self.version = answer["current_version"]
            elif status == 503 and answer.get("error") == "restoring":
                self.refused.append(time.monotonic())
                if len(self.refusals) < 3:
                    self.refusals.append((status, answer, response.getheader("Retry-After")))
                time.sleep(0.05)
            else:
                self.other.append(f"{status} {answer}")
                time.sleep(0.1)
        conn.close()


def every_writer_acked(writers: list[Writer], since: float, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not all(writer.acked_since(since) for writer in writers):
        assert time.monotonic() < deadline, [writer.other[-3:] for writer in writers]
        time.sleep(0.05)


def manage(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )


def test_writes_during_a_restore_are_refused_and_none_acknowledged_is_lost(
    web_server,  # noqa: F811
    services,
    tmp_path,
):
    env = dict(
        os.environ,
        DATABASE_URL=services.postgres.url(connection.settings_dict["NAME"]),
        REDIS_URL=services.redis_url,
        SECRET_KEY=settings.SECRET_KEY,
        MODELS_DIR=str(tmp_path / "models"),
        DJANGO_SETTINGS_MODULE="corefapp.settings",
    )
    (tmp_path / "models").mkdir()
    writers = []
    for _ in range(WRITERS):
        topic = make_topic()
        user = UserFactory()
        _, annotation = assign(topic, user)
        applied = annotation_operation_apply(
            annotation_id=annotation.pk,
            user=user,
            payload={"op": "assign", "mention": mention_ids(topic)[0], "cluster": None},
            expected_version=0,
        )
        writers.append(
            Writer(
                web_server.port,
                Token.objects.create(user=user).key,
                annotation.pk,
                applied.created["cluster"],
                applied.version,
            )
        )
    archive = tmp_path / "backup.tar.gz"
    backed_up = manage("backup", str(archive), env=env)
    assert backed_up.returncode == 0, backed_up.stderr

    stop = threading.Event()
    threads = [threading.Thread(target=writer.run, args=(stop,)) for writer in writers]
    for thread in threads:
        thread.start()
    try:
        # Writes acknowledged after the backup, before the restore, and after it on the
        # restored data: each writer's, however slowly a loaded machine answers.
        every_writer_acked(writers, since=0.0)
        began = time.monotonic()
        restored = manage("restore", str(archive), "--replace", env=env)
        ended = time.monotonic()
        every_writer_acked(writers, since=ended)
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
    assert restored.returncode == 0, restored.stderr

    connection.close()  # a fresh session: the restore replaced the schema under the old one
    lost_during, lost_after_refusal = [], []
    for writer in writers:
        kept = {
            payload["note"]
            for payload in Operation.objects.filter(
                annotation_id=writer.annotation, name="set_note"
            ).values_list("payload", flat=True)
        }
        first_refusal = writer.refused[0] if writer.refused else float("inf")
        for note, when in writer.acked:
            if note in kept:
                continue
            if when > began:
                lost_during.append((note, round(when - began, 2)))
            if when > first_refusal:
                lost_after_refusal.append(note)
    acknowledged = sum(len(writer.acked) for writer in writers)
    during = sum(began < when < ended for writer in writers for _, when in writer.acked)
    refused = sum(len(writer.refused) for writer in writers)
    refusing = [round(min(w.refused) - began, 1) for w in writers if w.refused]
    print(
        f"restore {ended - began:.1f} s (the first refusal after {refusing[:1]} s: the command's "
        f"start-up); {acknowledged} writes acknowledged, {during} of them while the restore "
        f"ran, {refused} refused, {len(lost_during)} acknowledged after it began and lost"
    )

    assert all(writer.refused for writer in writers), (
        f"no write was refused while the restore ran; {len(lost_during)} of the {during} "
        f"acknowledged meanwhile are lost, the first: {lost_during[:3]}"
    )
    assert not lost_after_refusal, lost_after_refusal[:5]
    _, answer, retry_after = writers[0].refusals[0]
    assert answer["message"].startswith("A backup is being restored"), answer
    assert retry_after is not None
    assert not [writer.other for writer in writers if writer.other]
    # Writing went on, on the restored data, once the restore was done.
    assert all(when > ended for writer in writers for _, when in writer.acked[-1:])
