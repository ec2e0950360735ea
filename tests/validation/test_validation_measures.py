"""The validation section of the agreement report: rate with the idle cap, acceptance per
reason, kappa between two validators, P/R against the consolidated validation; JSON and CSV."""

import io
import zipfile
from datetime import UTC, datetime, timedelta

import pytest

from annotation.models import Assignment, Operation
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.operations import annotation_operation_apply
from reporting.selectors.agreement import project_agreement
from reporting.selectors.agreement_files import agreement_tables
from tests.factories import PASSWORD, AdminFactory, UserFactory, mention_ids
from tests.validation.validation_setup import validation_project, validation_topic
from validation.selectors.measures import validation_measures_csv_rows

A, R = "accepted", "rejected"


def validate(user, topic, verdicts, *, role=Assignment.Role.ANNOTATOR, submit=True):
    """`verdicts`: per mention (in topic order) "a", a reason key, or None (not decided)."""
    assignment = assignment_create(topic=topic, user=user, role=role)
    annotation = assignment.annotation
    version = 0
    for mention, verdict in zip(mention_ids(topic), verdicts, strict=True):
        if verdict is None:
            continue
        payload = {"op": "validate", "mention": mention, "decision": A if verdict == "a" else R}
        if verdict != "a":
            payload["reason"] = verdict
        version = annotation_operation_apply(
            annotation_id=annotation.pk, user=user, payload=payload, expected_version=version
        ).version
    if submit:
        assignment_submit(assignment_id=assignment.pk, user=user)
    return annotation


def validated_wec_project():
    """Input clusters {m0, m1, m3, m4}, {m2}, {m5, m6}; both validators reject m1; they
    disagree on m6, which stays (undecided)."""
    project = validation_project("WEC")
    topic = validation_topic(project)
    validate(UserFactory(username="ann"), topic, ["a", "trigger", "a", "a", "a", "a", "a"])
    validate(UserFactory(username="bob"), topic, ["a", "trigger", "a", "a", "a", "a", "context"])
    return project


def measured_project():
    project = validation_project()
    topic = validation_topic(project)
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    # 7 mentions: ann and bob agree on 5 (4 accepted, 1 rejected) and differ on 2.
    validate(ann, topic, ["a", "a", "a", "a", "trigger", "a", "subevent"])
    validate(bob, topic, ["a", "context", "a", "a", "trigger", "a", "a"])
    return project, topic


pytestmark = [pytest.mark.django_db, pytest.mark.project(build=measured_project)]


def test_kappa_between_two_validators_is_the_hand_computed_value(project):
    report = project_agreement(project[0])["validation"]
    # ann: 5 accepted / 7; bob: 5 accepted / 7. p_o = 5/7.
    # p_e = (5/7)^2 + (2/7)^2 = 29/49; kappa = (5/7 - 29/49) / (1 - 29/49) = (6/49) / (20/49)
    (pair,) = report["pairs"]
    assert pair["validators"] == ["ann", "bob"]
    assert pair["mentions"] == 7
    assert pair["kappa"] == pytest.approx(0.3)
    assert report["kappa"] == pytest.approx(0.3)


def test_acceptance_rate_overall_and_per_reason(project):
    report = project_agreement(project[0])["validation"]
    ann = next(v for v in report["validators"] if v["validator"] == "ann")
    assert (ann["decided"], ann["accepted"], ann["rejected"]) == (7, 5, 2)
    assert ann["acceptance_rate"] == pytest.approx(5 / 7)
    assert ann["by_reason"]["trigger"] == {"count": 1, "rate": pytest.approx(1 / 7)}
    assert ann["by_reason"]["context"]["count"] == 0


def test_mentions_per_hour_count_active_time_with_the_idle_cap(project):
    operations = Operation.objects.filter(annotation__assignment__user__username="ann").order_by(
        "version"
    )
    start = datetime(2026, 1, 1, 9, tzinfo=UTC)
    # six gaps: 10 s each, except one lunch of an hour (counted as the 300 s cap)
    offsets = [0, 10, 20, 30, 3630, 3640, 3650]
    for operation, offset in zip(operations, offsets, strict=True):
        Operation.objects.filter(pk=operation.pk).update(
            created_at=start + timedelta(seconds=offset)
        )
    report = project_agreement(project[0])["validation"]
    ann = next(v for v in report["validators"] if v["validator"] == "ann")
    assert ann["active_seconds"] == 5 * 10 + 300
    assert ann["per_hour"] == pytest.approx(7 * 3600 / 350)  # 72 mentions an hour
    # WEC's rate counts valid mentions only: ann accepted 5 of the 7.
    assert ann["accepted_per_hour"] == pytest.approx(5 * 3600 / 350)
    # WEC's 350 an hour is per elapsed hour: the lunch counts in full beside the active rate
    assert ann["elapsed_seconds"] == 3650
    assert ann["per_elapsed_hour"] == pytest.approx(7 * 3600 / 3650)
    assert ann["accepted_per_elapsed_hour"] == pytest.approx(5 * 3600 / 3650)
    rows = validation_measures_csv_rows(report)
    measures = {row[3]: row[4] for row in rows if row[1] == "ann"}
    assert measures["accepted_per_hour"] == round(5 * 3600 / 350, 4)
    assert measures["accepted_per_elapsed_hour"] == round(5 * 3600 / 3650, 4)


def test_precision_and_recall_against_the_consolidated_validation(project):
    _, topic = project
    # The adjudicator settles the two mentions they differ on: m1 rejected, m6 accepted.
    validate(
        UserFactory(username="judge"),
        topic,
        [None, "context", None, None, None, None, "a"],
        role=Assignment.Role.ADJUDICATOR,
    )
    report = project_agreement(project[0])["validation"]
    assert report["consolidated_topics"] == 1
    ann = next(v for v in report["validators"] if v["validator"] == "ann")
    bob = next(v for v in report["validators"] if v["validator"] == "bob")
    # consolidated: accepted m0 m2 m3 m5 m6, rejected m1 m4.
    # ann accepted m0 m1 m2 m3 m5: precision 4/5, recall 4/5.
    assert (ann["precision"], ann["recall"], ann["compared"]) == (0.8, 0.8, 7)
    # bob accepted m0 m2 m3 m5 m6: all right.
    assert (bob["precision"], bob["recall"]) == (1.0, 1.0)
    # Kappa against the consolidated (WEC's 0.75 figure): ann A A A A R A R against
    # A R A A R A A: p_o = 5/7, both 5 A / 2 R, p_e = 29/49, kappa = 0.3; bob agrees throughout.
    assert ann["kappa_consolidated"] == pytest.approx(0.3)
    assert bob["kappa_consolidated"] == pytest.approx(1.0)
    tables = agreement_tables(project_agreement(project[0]))
    lines = tables["agreement_validation.csv"].splitlines()
    assert "validator,ann,,kappa_consolidated,0.3" in lines
    assert "validator,bob,,kappa_consolidated,1.0" in lines


def test_kappa_against_the_consolidated_is_empty_without_a_consolidation(project):
    report = project_agreement(project[0])["validation"]
    assert all(v["kappa_consolidated"] is None for v in report["validators"])


def test_the_report_json_and_csv_carry_the_validation_section(project, client):
    admin = AdminFactory()
    client.login(username=admin.username, password=PASSWORD)
    answer = client.get(f"/api/projects/{project[0].pk}/agreement/")
    assert answer.status_code == 200
    assert answer.json()["validation"]["pairs"][0]["kappa"] == pytest.approx(0.3)
    text = agreement_tables(project_agreement(project[0]))["agreement_validation.csv"]
    lines = text.splitlines()
    assert lines[0] == "section,validator,other_validator,measure,value"  # a table of its own
    assert "pair,ann,bob,kappa,0.3" in lines
    assert "validator,ann,,rejected:trigger,1" in lines
    download = client.get(f"/api/projects/{project[0].pk}/agreement/?format=zip")
    with zipfile.ZipFile(io.BytesIO(download.content)) as archive:
        assert "pair,ann,bob,kappa,0.3" in archive.read("agreement_validation.csv").decode()
