"""The agreement report's annotator-vs-gold section: each annotator's P/R/F1 per metric against
each topic's gold (the submitted adjudication, else the imported gold), micro over topics."""

from __future__ import annotations

import csv
import io
import zipfile
from io import StringIO

import pytest
from django.core.management import call_command

from adjudication.services.adjudications import create_adjudication
from annotation.models import Annotation
from annotation.services.assignments import assignment_submit
from annotation.services.exports import annotations_export
from annotation.services.imports.topics import topics_import
from corefscore.formats import read
from corefscore.scoring.api import score_scico
from reporting.selectors.agreement import project_agreement
from reporting.selectors.agreement_files import agreement_tables
from tests.factories import ALICE_AND_BOB, PASSWORD, AdminFactory, ProjectFactory, UserFactory
from tests.paths import DEMO, SCICO_DEMO

pytestmark = [pytest.mark.django_db, pytest.mark.project(annotators=ALICE_AND_BOB)]


def test_each_annotator_is_scored_against_the_imported_gold_as_the_scorer_does(project, tmp_path):
    annotations_export(project=project, format="scico", out=tmp_path / "gold.jsonl", source="gold")
    annotations_export(
        project=project, format="scico", out=tmp_path / "alice.jsonl", source="alice"
    )
    expected = score_scico(
        read("scico", tmp_path / "gold.jsonl").topics,
        read("scico", tmp_path / "alice.jsonl").topics,
    )

    section = project_agreement(project)["vs_gold"]

    assert (section["gold_topics"], section["adjudicated_topics"]) == (6, 0)
    assert [row["annotator"] for row in section["annotators"]] == ["alice", "bob"]
    alice = section["annotators"][0]
    assert alice["topics"] == 6
    assert alice["scores"]["muc"] == expected["muc"]
    assert alice["scores"]["hierarchy"] == expected["hierarchy"]
    assert alice["scores"]["mentions"] == expected["mention_detection"]["exact"]
    assert alice["scores"]["conll"] == {
        "precision": None,
        "recall": None,
        "f1": expected["conll_f1"],
    }
    assert section["metrics"] == list(alice["scores"])


def test_a_submitted_adjudication_is_the_gold_of_its_topic(project):
    topic = project.topics.order_by("position").first()
    before = project_agreement(project)["vs_gold"]["annotators"][1]["scores"]["bcub"]["f1"]
    judge = UserFactory()
    assignment = create_adjudication(topic=topic, user=judge, seed="bob")
    assignment_submit(assignment_id=assignment.pk, user=judge)

    section = project_agreement(project)["vs_gold"]

    assert (section["gold_topics"], section["adjudicated_topics"]) == (6, 1)
    bob = section["annotators"][1]
    # On that topic bob is now scored against his own annotation, not the imported gold.
    assert bob["annotator"] == "bob"
    assert bob["scores"]["bcub"]["f1"] > before


def test_only_the_adjudication_as_gold_gives_the_seeding_annotator_full_marks():
    project = ProjectFactory(name="no gold")
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    Annotation.objects.filter(topic__project=project, kind=Annotation.Kind.GOLD).delete()
    for name, letter in (("alice", "a"), ("bob", "b")):
        call_command(
            "import_annotations", "--project", "no gold", "--user", name, "--format", "scico",
            "--create-user", "--submit", str(DEMO / f"scico_demo_annotator_{letter}.jsonl"),
            stdout=StringIO(),
        )  # fmt: skip
    assert project_agreement(project)["vs_gold"]["annotators"] == []
    topic = project.topics.order_by("position").first()
    judge = UserFactory()
    assignment = create_adjudication(topic=topic, user=judge, seed="alice")
    assignment_submit(assignment_id=assignment.pk, user=judge)

    section = project_agreement(project)["vs_gold"]

    alice, bob = section["annotators"]
    assert (alice["topics"], bob["topics"]) == (1, 1)
    assert all(s["f1"] == 1.0 for s in alice["scores"].values())
    assert bob["scores"]["conll"]["f1"] < 1.0


def test_the_csv_carries_the_section_as_a_table_of_its_own(project):
    tables = agreement_tables(project_agreement(project))

    iaa, section = tables["agreement.csv"], tables["agreement_vs_gold.csv"]
    rows = list(csv.DictReader(StringIO(section)))
    assert list(rows[0]) == [
        "section",
        "annotator",
        "metric",
        "precision",
        "recall",
        "f1",
        "topics",
    ]
    alice_muc = next(r for r in rows if r["annotator"] == "alice" and r["metric"] == "muc")
    muc = project_agreement(project)["vs_gold"]["annotators"][0]["scores"]["muc"]
    assert (alice_muc["section"], alice_muc["topics"]) == ("vs_gold", "6")
    assert float(alice_muc["f1"]) == muc["f1"]
    conll = next(r for r in rows if r["annotator"] == "bob" and r["metric"] == "conll")
    assert conll["precision"] == conll["recall"] == ""
    assert conll["f1"]
    assert iaa.startswith("scope,topic,metric")


def test_the_report_endpoint_answers_the_section(project, client):
    admin = AdminFactory()
    client.login(username=admin.username, password=PASSWORD)

    answer = client.get(f"/api/projects/{project.pk}/agreement/")

    assert answer.status_code == 200
    assert [r["annotator"] for r in answer.json()["vs_gold"]["annotators"]] == ["alice", "bob"]
    download = client.get(f"/api/projects/{project.pk}/agreement/?format=zip")
    with zipfile.ZipFile(io.BytesIO(download.content)) as archive:
        table = archive.read("agreement_vs_gold.csv").decode()
    assert table.startswith("section,annotator,metric,precision,recall,f1,topics\n")
