"""The agreement report says what it leaves out and how sure it is: a topic where two
annotators agree completely on singletons is undefined (not 0.0) and left out of the
averages and the flag, with the reason; a practice topic is named as left out; under 10
topics no interval is printed; the download is one table per CSV file."""

from __future__ import annotations

import csv
import io
import zipfile
from statistics import fmean

import pytest
from django.core.management import call_command

from annotation.models import Project
from annotation.services.imports.topics import topics_import
from corefscore.formats import read
from corefscore.metrics.undefined import NO_CLUSTER, NO_HIERARCHY
from onboarding.services.practice import practice_mark
from reporting.domain.agreement_coverage import MIN_INTERVAL_TOPICS
from tests.factories import PASSWORD, AdminFactory, ProjectFactory
from tests.paths import DEMO
from tests.reporting.test_agreement_db import _clustered, load

pytestmark = pytest.mark.django_db

SAME = "9004"  # both annotators: the same 14-ish singletons, no hierarchy
PRACTICE = "9005"  # submitted by both, then made a practice topic


def undefined_project(name: str) -> Project:
    """The demo topics, both annotators' own work, topic SAME left all singletons by both,
    and PRACTICE made a practice topic after both submitted it (the browser test uses it too)."""
    project = ProjectFactory(name=name)
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")
    gold = {t.external_id: t for t in read("scico", DEMO / "scico_demo.jsonl").topics}
    for name_, letter in (("alice", "a"), ("bob", "b")):
        own = {
            t.external_id: t
            for t in read("scico", DEMO / f"scico_demo_annotator_{letter}.jsonl").topics
        }
        same = _clustered(gold[SAME])
        same.relations = []
        load(project, name_, [own["9001"], own["9002"], own["9003"], same, own[PRACTICE]])
    practice_mark(topic=project.topics.get(external_id=PRACTICE), mode="scored")
    return project


@pytest.fixture
def report(client):
    project = undefined_project("left-out")
    admin = AdminFactory()
    client.login(username=admin.username, password=PASSWORD)
    answer = client.get(f"/api/projects/{project.pk}/agreement/")
    assert answer.status_code == 200
    return project, answer.json(), client


def test_identical_singleton_annotations_are_undefined_with_the_reason(report):
    _, body, _ = report
    same = body["topics"][SAME]
    for metric in ("conll_f1", "muc_f1", "bcub_f1", "ceafe_f1", "lea_f1"):
        assert same[metric] == {"avg": None, "max": None, "pairs": {"alice-bob": None}}
        assert body["undefined_reasons"][metric] == NO_CLUSTER
        assert body["left_out"]["undefined"][metric] == {"topics": [SAME], "reason": NO_CLUSTER}
    for metric in ("hierarchy_f1", "hierarchy_50_f1", "hierarchy_f1_raw", "path_ratio"):
        assert same[metric]["max"] is None  # every hierarchy figure alike
        assert body["left_out"]["undefined"][metric]["reason"] == NO_HIERARCHY
    assert same["mention_f1"]["max"] == 1.0  # mention detection counts singletons: agreed


def test_an_undefined_topic_is_left_out_of_max_macro_and_counted(report):
    _, body, _ = report
    for metric in ("conll_f1", "hierarchy_f1", "path_ratio"):
        defined = [scores[metric]["max"] for topic, scores in body["topics"].items()]
        assert defined.count(None) == 1
        overall = body["overall"][metric]
        assert overall["max_macro"] == pytest.approx(fmean(m for m in defined if m is not None))
        assert overall["topics"] == 3  # of the 4 scored topics


def test_the_practice_topic_is_said_to_be_left_out_and_not_scored(report):
    _, body, _ = report
    assert PRACTICE not in body["topics"]
    assert body["left_out"]["practice"]["topics"] == [PRACTICE]
    assert "practice" in body["left_out"]["practice"]["reason"]
    assert body["left_out"]["unscored"]["topics"] == ["9006"]


def test_under_the_minimum_of_topics_no_interval_is_printed_but_said_why(report):
    _, body, _ = report
    assert body["interval_min_topics"] == MIN_INTERVAL_TOPICS == 10
    conll = body["overall"]["conll_f1"]
    assert (conll["avg_ci"], conll["max_micro_ci"], conll["max_macro_ci"]) == (None, None, None)
    assert conll["interval_note"] == (
        "interval not meaningful over 3 topics (fewer than 10): none shown"
    )


def test_the_download_is_one_table_per_csv_file(report):
    project, _, client = report
    answer = client.get(f"/api/projects/{project.pk}/agreement/?format=zip")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        tables = {name: archive.read(name).decode() for name in archive.namelist()}
    assert sorted(tables) == [
        "agreement.csv",
        "agreement_left_out.csv",
        "agreement_vs_gold.csv",
    ]
    for name, text in tables.items():
        rows = list(csv.reader(io.StringIO(text, newline="")))
        widths = {len(row) for row in rows}
        assert widths == {len(rows[0])}, name  # every row as wide as the header: one table
    pairs = list(csv.DictReader(io.StringIO(tables["agreement.csv"])))
    same = next(r for r in pairs if r["topic"] == SAME and r["metric"] == "conll_f1")
    assert (same["avg"], same["max"]) == ("", "")  # undefined: empty, never 0.0
    left_out = list(csv.DictReader(io.StringIO(tables["agreement_left_out.csv"])))
    assert {"left_out": "practice", "topic": PRACTICE, "metric": ""}.items() <= left_out[0].items()
    assert {
        "left_out": "undefined",
        "topic": SAME,
        "metric": "conll_f1",
        "reason": NO_CLUSTER,
    } in left_out
    assert any(r["left_out"] == "interval" and r["metric"] == "conll_f1" for r in left_out)
    # the CSV alone is the pairs' table, as the scorer writes it
    single = client.get(f"/api/projects/{project.pk}/agreement/?format=csv").content.decode()
    assert single == tables["agreement.csv"]


def test_the_release_datasheet_says_undefined_and_what_is_left_out(report, tmp_path):
    project, _, _ = report
    call_command(
        "dataset_release", "--project", project.name, str(tmp_path / "out"), stdout=io.StringIO()
    )

    sheet = (tmp_path / "out" / "DATASHEET.md").read_text()
    assert "- 1 practice topic left out: practice topics measure" in sheet
    assert f"- CoNLL F1 is undefined on 1 topic ({NO_CLUSTER}), left out of its averages." in sheet
    assert (tmp_path / "out" / "agreement_left_out.csv").is_file()
