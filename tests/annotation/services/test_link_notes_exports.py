"""Notes and attributes leave the database in the exports that can hold them and come back
on import (brat), are counted as left out by those that cannot (CoNLL), and travel whole in a
project archive (rows, the project's definitions, the operation log)."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from annotation.models import Operation, Project, RelationLink
from annotation.services.assignments import assignment_create
from annotation.services.exports import annotations_export
from annotation.services.imports.topics import topics_import
from annotation.services.operations import annotation_operation_apply
from tests.factories import AdminFactory, ProjectFactory, UserFactory, make_topic, mention_ids

pytestmark = pytest.mark.django_db

ATTRIBUTES = [{"name": "certainty", "values": ["high", "low"]}]


@pytest.fixture
def noted():
    """ann's annotation: "the mixture" -> "The mixture" as COREFERENCE, with a note and
    certainty low."""
    project = ProjectFactory(name="noted", anaphora=True, hierarchy=False, attributes=ATTRIBUTES)
    topic = make_topic(project)
    ann = UserFactory(username="ann")
    annotation = assignment_create(topic=topic, user=ann).annotation
    m = mention_ids(topic)
    link = {"type": "COREFERENCE", "anaphor": m[6], "antecedent": m[5]}
    for op in (
        {"op": "add_link", **link},
        {"op": "set_link_note", **link, "note": "the same mixture"},
        {"op": "set_link_attribute", **link, "name": "certainty", "value": "low"},
    ):
        annotation.refresh_from_db()
        annotation_operation_apply(
            annotation_id=annotation.pk, user=ann, payload=op, expected_version=annotation.version
        )
    return project


def test_brat_carries_them_out_and_back_in(noted, tmp_path):
    annotations_export(project=noted, format="brat", out=tmp_path / "out", source="ann")
    again = ProjectFactory(anaphora=True, hierarchy=False)
    topics_import(project=again, path=tmp_path / "out", format="brat")
    row = RelationLink.objects.get(annotation__topic__project=again)
    assert (row.type, row.note, row.attributes) == (
        "COREFERENCE",
        "the same mixture",
        {"certainty": "low"},
    )


def test_conll_says_what_it_leaves_out(noted, tmp_path):
    result = annotations_export(
        project=noted, format="conll", out=tmp_path / "o.conll", source="ann"
    )
    messages = [str(w) for item in result.written for w in item.warnings]
    assert any("cannot hold link notes: 1 left out" in m for m in messages)
    assert any("cannot hold link attributes: 1 left out" in m for m in messages)


def test_a_project_archive_carries_rows_definitions_and_log(noted, tmp_path):
    path = Path(tmp_path) / "noted.zip"
    call_command("export_project", "noted", str(path))
    admin = APIClient()
    admin.force_authenticate(AdminFactory())
    with path.open("rb") as file:
        answer = admin.post(
            "/api/project-archives/", {"file": file, "name": "noted copy"}, format="multipart"
        )
    assert answer.status_code == 201, answer.json()
    copy = Project.objects.get(name="noted copy")
    assert copy.attributes == ATTRIBUTES
    row = RelationLink.objects.get(annotation__topic__project=copy)
    assert (row.note, row.attributes) == ("the same mixture", {"certainty": "low"})
    # the log's effects name the copy's mentions (their ids remapped), so undo still fits
    effect = Operation.objects.get(annotation=row.annotation, name="set_link_note").effects[0]
    assert (effect["anaphor"], effect["antecedent"]) == (row.anaphor_id, row.antecedent_id)


def test_the_download_names_what_its_format_left_out_in_a_header(noted):
    admin = APIClient()
    admin.force_authenticate(AdminFactory())

    conll = admin.get(f"/api/projects/{noted.pk}/export/?format=conll&source=ann")
    brat = admin.get(f"/api/projects/{noted.pk}/export/?format=brat&source=ann")

    assert conll.status_code == brat.status_code == 200
    assert json.loads(conll["X-Export-Warnings"]) == [
        f"conll: field link {what}: CoNLL-2012 cannot hold link {what}: 1 left out "
        "(a project archive keeps them)"
        for what in ("notes", "attributes")
    ]
    assert b"".join(conll.streaming_content).strip()  # still the plain file
    assert "X-Export-Warnings" not in brat  # brat holds both
