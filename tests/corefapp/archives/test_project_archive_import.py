"""What a project archive carries and what its import lets the admin choose, through the API:
accept latencies survive the round trip (export -> import into a fresh project -> the same
figures on the progress page), a format-1 archive (before displays were carried) is still
read, and the imported assignments are new work in My topics only if the admin says so at
import (POST /api/project-archives/) or later in the project's settings."""

from __future__ import annotations

import json
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from annotation.models import Operation, Project
from annotation.services.assignments import assignment_create
from annotation.services.operations import annotation_operation_apply
from reporting.models import SuggestionShown
from tests.corefapp.archives.test_project_archive_refusals import rows_everywhere
from tests.factories import ProjectFactory, UserFactory, make_topic, mention_ids
from tests.modelserve.api.test_suggestions_payload import finished_run

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)


@pytest.fixture
def accepted(tmp_path):
    """Project "latencies": ann was shown a suggestion and accepted it 2.5 s later (the
    workspace's display record, then the logged acceptance); exported to a zip."""
    project = ProjectFactory(name="latencies")
    topic = make_topic(project)
    ann = UserFactory(username="ann")
    annotation = assignment_create(topic=topic, user=ann).annotation
    ids = mention_ids(topic)
    finished_run(topic, [[ids[0], ids[1]]])
    client = APIClient()
    client.force_authenticate(ann)
    suggestions = client.get(f"/api/annotations/{annotation.pk}/suggestions/").json()
    first = next(m for m in suggestions["memberships"] if m["mention"] == ids[0])
    shown = client.post(
        f"/api/annotations/{annotation.pk}/suggestions-shown/",
        {"shown": [{"suggestion": first["suggestion"], "age_ms": 0}]},
        format="json",
    )
    assert shown.status_code == 204
    annotation_operation_apply(
        annotation_id=annotation.pk,
        user=ann,
        payload={
            "op": "accept_suggestion",
            "suggestion": first["suggestion"],
            "operation": first["operation"],
        },
        expected_version=annotation.version,
    )
    SuggestionShown.objects.filter(annotation=annotation).update(shown_at=T0)
    Operation.objects.filter(annotation=annotation).update(created_at=T0 + timedelta(seconds=2.5))
    path = tmp_path / "latencies.zip"
    call_command("export_project", "latencies", str(path))
    return project, ann, path


def upload(admin_client: APIClient, path: Path, **fields):
    with path.open("rb") as file:
        return admin_client.post(
            "/api/project-archives/", {"file": file, **fields}, format="multipart"
        )


def acceptance(admin_client: APIClient, project_id: int) -> dict:
    report = admin_client.get(f"/api/projects/{project_id}/time/").json()
    return {row["annotator"]: row["acceptance"] for row in report["annotators"]}


def test_accept_latencies_are_the_same_after_an_archive_round_trip(admin_client, accepted):
    project, _, path = accepted
    before = acceptance(admin_client, project.pk)
    assert before["ann"]["accepted"] == 1
    assert before["ann"]["median_seconds"] == 2.5
    rates = admin_client.get(f"/api/projects/{project.pk}/suggestion-acceptance/").json()
    assert rates

    answer = upload(admin_client, path, name="latencies copy")

    assert answer.status_code == 201, answer.json()
    assert answer.json()["rows"]["reporting.suggestionshown"] == 1
    new = answer.json()["project_id"]
    assert acceptance(admin_client, new) == before
    # The Suggestions page's acceptance rate per backend, from the carried decisions.
    assert admin_client.get(f"/api/projects/{new}/suggestion-acceptance/").json() == rates


def test_an_archive_of_format_1_without_displays_is_still_read(admin_client, accepted, tmp_path):
    _, _, path = accepted
    old = tmp_path / "format-1.zip"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(old, "w") as copy:
        manifest = json.loads(source.read("manifest.json"))
        manifest["format_version"] = 1
        del manifest["tables"]["reporting.suggestionshown"]
        manifest["migrations"].pop("reporting")
        copy.writestr("manifest.json", json.dumps(manifest))
        for name in source.namelist():
            if name not in {"manifest.json", "reporting.suggestionshown.jsonl"}:
                copy.writestr(name, source.read(name))

    answer = upload(admin_client, old, name="from format 1")

    assert answer.status_code == 201, answer.json()
    # Format 1 carried no displays: the acceptance is there, its latency is not.
    row = acceptance(admin_client, answer.json()["project_id"])["ann"]
    assert (row["accepted"], row["unseen"]) == (0, 1)


def my_topics(user) -> list[str]:
    client = APIClient()
    client.force_authenticate(user)
    return sorted(row["project"]["name"] for row in client.get("/api/assignments/mine/").json())


def test_imported_assignments_are_new_work_only_if_the_admin_chooses(admin_client, accepted):
    _, ann, path = accepted
    assert my_topics(ann) == ["latencies"]

    kept_out = upload(admin_client, path, name="kept out")
    listed = upload(admin_client, path, name="listed", in_my_topics="true")

    assert kept_out.status_code == listed.status_code == 201
    assert kept_out.json()["in_my_topics"] is False
    assert kept_out.json()["users_matched"] == ["ann"]
    assert my_topics(ann) == ["latencies", "listed"]
    hidden = kept_out.json()["project_id"]
    assert admin_client.get(f"/api/projects/{hidden}/").json()["in_my_topics"] is False
    # The admin lists them later in the project's settings.
    opened = admin_client.patch(f"/api/projects/{hidden}/", {"in_my_topics": True}, format="json")
    assert opened.status_code == 200
    assert opened.json()["in_my_topics"] is True
    assert my_topics(ann) == ["kept out", "latencies", "listed"]


def test_the_command_line_import_keeps_them_out_unless_asked(accepted, capsys):
    _, ann, path = accepted
    call_command("import_project", str(path), "--name", "by command")
    assert "not in the annotators' My topics" in capsys.readouterr().out
    call_command("import_project", str(path), "--name", "listed by command", "--in-my-topics")
    assert my_topics(ann) == ["latencies", "listed by command"]
    assert not Project.objects.get(name="by command").in_my_topics


def test_a_refused_upload_is_a_json_400_and_writes_nothing(admin_client, accepted, tmp_path):
    _, ann, path = accepted
    before = rows_everywhere()
    notes = tmp_path / "notes.zip"
    notes.write_text("not a zip")

    not_zip = upload(admin_client, notes)
    clash = upload(admin_client, path)  # the archive's own name is in use
    no_file = admin_client.post("/api/project-archives/", {}, format="multipart")
    annotator = APIClient()
    annotator.force_authenticate(ann)
    with path.open("rb") as file:
        forbidden = annotator.post(
            "/api/project-archives/", {"file": file, "name": "mine"}, format="multipart"
        )

    assert (not_zip.status_code, not_zip.json()["error"]) == (400, "import_refused")
    assert "not a readable zip archive" in not_zip.json()["message"]
    assert clash.status_code == 400
    assert "'latencies' exists here already" in clash.json()["message"]
    assert (no_file.status_code, no_file.json()["fields"]["file"]) == (
        400,
        ["Choose a project archive to import."],
    )
    assert forbidden.status_code == 403
    assert rows_everywhere() == before
