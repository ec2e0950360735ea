"""A project's agreement from the database: the scoring engine's numbers, few queries."""

import csv
import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.exports import annotations_export
from annotation.services.imports.annotation import annotation_import_for_assignment
from annotation.services.imports.topics import topics_import
from corefscore.formats import read
from reporting.domain.agreement_coverage import add_coverage
from reporting.selectors.agreement import project_agreement, project_agreement_csv
from tests.factories import ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
from tests.paths import DEMO


def load(project, username, topics, *, submit=True):
    user = UserFactory(username=username)
    rows = {t.external_id: t for t in project.topics.all()}
    for data in topics:
        assignment = assignment_create(topic=rows[data.external_id], user=user)
        annotation_import_for_assignment(assignment=assignment, topic=data)
        if submit:
            assignment_submit(assignment_id=assignment.pk, user=user)
    return user


@pytest.fixture
def scico_project():
    project = ProjectFactory(name="scico")
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")
    load(project, "alice", read("scico", DEMO / "scico_demo_annotator_a.jsonl").topics)
    load(project, "bob", read("scico", DEMO / "scico_demo_annotator_b.jsonl").topics)
    return project


@pytest.fixture
def chemu_project():
    project = ProjectFactory(name="chemu", hierarchy=False, anaphora=True)
    topics_import(project=project, path=DEMO / "chemu_demo.jsonlines", format="chemu")
    gold = read("chemu", DEMO / "chemu_demo.jsonlines").topics
    load(project, "alice", gold)
    # bob types every fourth link differently. (Dropping links would also drop mentions from
    # bob's ChEMU-Ref file, which lists only linked mentions, while his annotation keeps them.)
    for number, topic in enumerate(gold):
        for k, link in enumerate(topic.links):
            if (k + number) % 4 == 0:
                link.type = "CONTAINED" if link.type == "WORK_UP" else "WORK_UP"
    load(project, "bob", gold)
    return project


def scorer_iaa(format, files, names, tmp_path):
    """`python -m corefscore iaa` on the files: its JSON and its CSV."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "corefscore",
            "iaa",
            *map(str, files),
            "--format",
            format,
            "--names",
            ",".join(names),
            "--json",
            "--intervals",
            "--csv",
            str(tmp_path / "scorer.csv"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out), (tmp_path / "scorer.csv").read_text()


@pytest.mark.parametrize(
    ("fixture", "format", "extension"),
    [("scico_project", "scico", "jsonl"), ("chemu_project", "chemu", "jsonlines")],
)
def test_the_numbers_equal_the_scorer_on_the_same_data_exported_to_files(
    request, tmp_path, fixture, format, extension
):
    project = request.getfixturevalue(fixture)
    annotations_export(project=project, format=format, out=tmp_path, source="submitted")

    expected, expected_csv = scorer_iaa(
        format,
        [tmp_path / f"alice.{extension}", tmp_path / f"bob.{extension}"],
        ["alice", "bob"],
        tmp_path,
    )

    result = project_agreement(project)
    assert result["topics"] == expected["topics"]
    # The same figures; the report withholds the scorer's intervals over 6 topics, fewer
    # than the 10 an interval needs to mean something (reporting/domain/agreement_coverage)
    assert (
        add_coverage(expected, practice_topics=[], keep_singletons=False)["overall"]
        == (result["overall"])
    )
    assert all(o["interval_note"] and o["avg_ci"] is None for o in result["overall"].values())
    # The report's CSV is the scorer's, its interval cells left empty
    rows = list(csv.reader(StringIO(project_agreement_csv(project))))
    scorer_rows = list(csv.reader(StringIO(expected_csv)))
    assert rows[0] == scorer_rows[0]
    assert [row[:9] for row in rows] == [row[:9] for row in scorer_rows]
    assert all(cell == "" for row in rows[1:] for cell in row[9:])


def test_the_command_writes_the_same_csv_as_project_agreement_csv(scico_project, tmp_path):
    out = StringIO()
    call_command(
        "agreement", "--project", "scico", "--csv", str(tmp_path / "report.csv"), stdout=out
    )

    assert (tmp_path / "report.csv").read_text() == project_agreement_csv(scico_project)
    assert "annotators with submissions: alice, bob" in out.getvalue()
    assert "conll_f1" in out.getvalue()
    assert "6 topic(s) scored" in out.getvalue()


def test_the_csv_has_a_readable_header_topic_rows_and_overall_rows(scico_project):
    rows = list(csv.DictReader(StringIO(project_agreement_csv(scico_project))))

    assert list(rows[0]) == [
        "scope",
        "topic",
        "metric",
        "avg",
        "max",
        "annotators",
        "std",
        "max_micro",
        "max_macro",
        "avg_ci_low",
        "avg_ci_high",
        "max_micro_ci_low",
        "max_micro_ci_high",
        "max_macro_ci_low",
        "max_macro_ci_high",
    ]
    topic_rows = [row for row in rows if row["scope"] == "topic"]
    assert len(topic_rows) == 6 * 11
    assert {row["annotators"] for row in topic_rows} == {"2"}
    assert [row["metric"] for row in rows if row["scope"] == "overall"] == [
        "conll_f1",
        "muc_f1",
        "bcub_f1",
        "ceafe_f1",
        "lea_f1",
        "hierarchy_f1",
        "hierarchy_50_f1",
        "path_ratio",
        "hierarchy_f1_raw",
        "mention_f1",
        "mention_relaxed_f1",
    ]


def test_only_submitted_annotator_annotations_count_and_thin_topics_are_listed_unscored(
    scico_project,
):
    topics = read("scico", DEMO / "scico_demo.jsonl").topics
    load(scico_project, "carol", topics[:2], submit=False)
    adjudicator = UserFactory(username="dave")
    assignment_create(
        topic=scico_project.topics.get(external_id="9001"), user=adjudicator, role="adjudicator"
    )
    only_alice = ProjectFactory(name="thin")
    topics_import(project=only_alice, path=DEMO / "scico_demo.jsonl", format="scico")
    load(only_alice, "erin", topics[:1])

    assert project_agreement(scico_project)["annotators"] == ["alice", "bob"]
    thin = project_agreement(only_alice)
    assert thin["topics"] == {}
    assert thin["unscored_topics"] == ["9001", "9002", "9003", "9004", "9005", "9006"]


def test_a_project_with_both_schemes_gets_both_metric_sets(tmp_path):
    project = ProjectFactory(hierarchy=True, anaphora=True)
    topics_import(project=project, path=DEMO / "chemu_demo.jsonlines", format="chemu")
    gold = read("chemu", DEMO / "chemu_demo.jsonlines").topics
    load(project, "alice", [_clustered(t) for t in gold])
    load(project, "bob", [_clustered(t) for t in gold])

    overall = project_agreement(project)["overall"]

    assert {"conll_f1", "path_ratio", "relation_exact_f1", "alpha_mentions"} <= set(overall)
    assert overall["relation_exact_f1"]["avg"] == 1.0


def _clustered(topic):
    """Every mention a singleton, so that hierarchy projects accept the submission."""
    for index, mention in enumerate(topic.mentions):
        mention.cluster = str(index)
    return topic


def test_the_report_reads_a_fixed_number_of_queries_whatever_the_number_of_topics(
    scico_project, django_assert_max_num_queries
):
    # 14 for the pairs; the annotator-vs-gold section reads the gold and the work again (11).
    with django_assert_max_num_queries(25):
        project_agreement(scico_project)


def test_an_unknown_project_is_refused():
    with pytest.raises(CommandError, match="project 'nope' does not exist"):
        call_command("agreement", "--project", "nope", stdout=StringIO())
