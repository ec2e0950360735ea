"""GET /api/projects/<id>/time/ (JSON and CSV) and POST /api/annotations/<id>/suggestions-shown/:
time per kind of decision from the real log, acceptance latency from a display the workspace
recorded, agreement with adjudicated gold in submission order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from rest_framework.test import APIClient

from annotation.models import Annotation, Assignment, Operation
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.operations import annotation_operation_apply
from reporting.models import AgreementPair, SuggestionShown
from tests.factories import AdminFactory, ProjectFactory, UserFactory, make_topic, mention_ids
from tests.modelserve.api.test_suggestions_payload import finished_run

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)


def apply(annotation, user, payloads):
    version = annotation.version
    for payload in payloads:
        version = annotation_operation_apply(
            annotation_id=annotation.pk, user=user, payload=payload, expected_version=version
        ).version
    annotation.refresh_from_db()


def timed(annotation, offsets):
    """Give the annotation's logged operations these times (seconds after T0), in order."""
    operations = Operation.objects.filter(annotation=annotation).order_by("version")
    for operation, offset in zip(operations, offsets, strict=True):
        Operation.objects.filter(pk=operation.pk).update(created_at=T0 + timedelta(seconds=offset))


@pytest.fixture
def setup():
    project = ProjectFactory(name="Timed")
    topic = make_topic(project)
    ann = UserFactory(username="ann")
    annotation = assignment_create(topic=topic, user=ann).annotation
    ids = mention_ids(topic)
    run = finished_run(topic, [[ids[0], ids[1]]])
    client = APIClient()
    client.force_authenticate(ann)
    suggestions = client.get(f"/api/annotations/{annotation.pk}/suggestions/").json()
    first = next(m for m in suggestions["memberships"] if m["mention"] == ids[0])
    return project, topic, ann, annotation, ids, run, client, first


def test_the_workspace_records_a_display_and_the_report_times_each_kind(setup):
    project, _, ann, annotation, ids, _, client, first = setup
    shown = client.post(
        f"/api/annotations/{annotation.pk}/suggestions-shown/",
        {"shown": [{"suggestion": first["suggestion"], "age_ms": 0}]},
        format="json",
    )
    assert shown.status_code == 204
    assert SuggestionShown.objects.filter(annotation=annotation).count() == 1
    accept = {"op": "accept_suggestion", "suggestion": first["suggestion"]}
    apply(
        annotation,
        ann,
        [
            {**accept, "operation": first["operation"]},
            {"op": "assign", "mention": ids[2], "cluster": None},  # a new cluster, 6 s later
            {"op": "assign", "mention": ids[3], "cluster": None},  # after an hour: no time
            {"op": "assign", "mention": ids[4], "cluster": None},
        ],
    )
    timed(annotation, [0.3, 6.3, 3606.3, 3610.3])
    SuggestionShown.objects.filter(annotation=annotation).update(shown_at=T0)

    admin = APIClient()
    admin.force_authenticate(AdminFactory())
    report = admin.get(f"/api/projects/{project.pk}/time/").json()

    (row,) = report["annotators"]
    assert row["annotator"] == "ann"
    kinds = row["kinds"]
    assert kinds["new_cluster"]["count"] == 2  # 6 s and 4 s
    assert kinds["new_cluster"]["median_seconds"] == 5.0
    assert kinds["new_cluster"]["excluded"] == 1  # the one after an hour
    assert kinds["suggestion_accept"]["excluded"] == 1  # first in its topic
    assert row["acceptance"] == {
        "accepted": 1,
        "unseen": 0,
        "median_seconds": 0.3,
        "rubber_stamping": True,
    }
    assert report["rubber_stamp_seconds"] == 0.5

    csv = admin.get(f"/api/projects/{project.pk}/time/?format=csv")
    assert csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[0] == "section,annotator,key,measure,value"
    assert "decision,ann,new_cluster,median_seconds,5.0" in lines
    assert "acceptance,ann,,rubber_stamping,true" in lines


def test_a_display_is_kept_from_its_first_report_and_bad_input_writes_nothing(setup):
    _, _, _, annotation, _, _, client, first = setup
    url = f"/api/annotations/{annotation.pk}/suggestions-shown/"
    body = {"shown": [{"suggestion": first["suggestion"], "age_ms": 2000}]}
    assert client.post(url, body, format="json").status_code == 204
    kept = SuggestionShown.objects.get(annotation=annotation).shown_at
    assert client.post(url, body, format="json").status_code == 204
    assert SuggestionShown.objects.get(annotation=annotation).shown_at == kept

    for bad in ({"shown": []}, {"shown": [{"suggestion": 1, "age_ms": -5}]}, {}):
        answer = client.post(url, bad, format="json")
        assert answer.status_code == 400
        assert answer["Content-Type"] == "application/json"
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    assert stranger.post(url, body, format="json").status_code == 404
    assert SuggestionShown.objects.filter(annotation=annotation).count() == 1


def annotate(annotation, user, groups):
    """Put each group of mentions in one new cluster and submit."""
    version = annotation.version
    for group in groups:
        cluster = None
        for mention in group:
            applied = annotation_operation_apply(
                annotation_id=annotation.pk,
                user=user,
                payload={"op": "assign", "mention": mention, "cluster": cluster},
                expected_version=version,
            )
            version = applied.version
            cluster = cluster or applied.created["cluster"]
    assignment_submit(assignment_id=annotation.assignment.pk, user=user)


def adjudicated(setup):
    """Ann's two topics, a week apart, and the judge's adjudications: the judge agrees on the
    first topic; on the second, a third mention joins the pair. (project, first topic, second)"""
    project, topic, ann, annotation, ids, _, _, _ = setup
    second = make_topic(project)
    other = assignment_create(topic=second, user=ann).annotation
    sid = mention_ids(second)
    annotate(annotation, ann, [ids[:2], *([m] for m in ids[2:])])
    annotate(other, ann, [sid[:2], *([m] for m in sid[2:])])
    judge = UserFactory(username="judge")
    for t, groups in (
        (topic, [ids[:2], *([m] for m in ids[2:])]),
        (second, [sid[:3], *([m] for m in sid[3:])]),
    ):
        adjudication = assignment_create(topic=t, user=judge, role=Assignment.Role.ADJUDICATOR)
        annotate(adjudication.annotation, judge, groups)
    Assignment.objects.filter(annotation=annotation).update(submitted_at=T0)
    Assignment.objects.filter(annotation=other).update(submitted_at=T0 + timedelta(days=7))
    return project, topic, second


def test_agreement_with_adjudicated_gold_in_submission_order(setup):
    project, topic, second = adjudicated(setup)
    admin = APIClient()
    admin.force_authenticate(AdminFactory())
    report = admin.get(f"/api/projects/{project.pk}/time/").json()

    assert report["gold_metric"] == "conll_f1"
    gold = next(a for a in report["annotators"] if a["annotator"] == "ann")["gold"]
    assert [t["external_id"] for t in gold["topics"]] == [topic.external_id, second.external_id]
    assert [t["order"] for t in gold["topics"]] == [1, 2]
    assert [w["week"] for w in gold["weeks"]] == ["2026-W10", "2026-W11"]
    assert [w["topics"] for w in gold["weeks"]] == [1, 1]
    first, later = (t["score"] for t in gold["topics"])
    assert first == pytest.approx(1.0)
    assert later is not None
    assert later < 1.0
    assert [w["score"] for w in gold["weeks"]] == [first, later]  # one topic a week
    # the judge's own work is no annotator's: no gold series
    assert all(a["gold"]["topics"] == [] for a in report["annotators"] if a["annotator"] == "judge")


def test_the_gold_scores_are_read_from_the_stored_agreement_rows(setup):
    """The gold series reads the agreement report's stored (gold, work) rows (scored
    once, not on every view): the first view stores what it did not find, and a stored
    row is what the page shows (here one made wrong on purpose: the first topic's row given
    the second's counts)."""
    project, topic, second = adjudicated(setup)
    admin = APIClient()
    admin.force_authenticate(AdminFactory())

    def scores():
        report = admin.get(f"/api/projects/{project.pk}/time/").json()
        gold = next(a for a in report["annotators"] if a["annotator"] == "ann")["gold"]
        return [t["score"] for t in gold["topics"]]

    first, later = scores()
    rows = {
        row.topic_id: row
        for row in AgreementPair.objects.filter(
            topic__project=project, key__kind=Annotation.Kind.ADJUDICATION
        )
    }
    assert set(rows) == {topic.pk, second.pk}  # stored by the first view
    rows[topic.pk].counts = rows[second.pk].counts
    rows[topic.pk].save()
    assert first != later
    assert scores() == [later, later]
