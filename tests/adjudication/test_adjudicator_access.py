"""An adjudicator reads the annotators' work on the topics they adjudicate, read-only, and
nothing else; annotators never see each other's work."""

from __future__ import annotations

import pytest

from annotation.models import Assignment
from annotation.services.assignments import assignment_submit
from annotation.services.operations import annotation_operation_apply
from tests.factories import AdminFactory, UserFactory, assign, make_topic, mention_ids, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    topic, other_topic = make_topic(), make_topic()
    annotator, colleague, adjudicator = UserFactory(), UserFactory(), UserFactory()
    late, admin = UserFactory(), AdminFactory()
    work_assignment, work = assign(topic, annotator)
    colleague_assignment, colleague_work = assign(topic, colleague)
    for assignment in (work_assignment, colleague_assignment):
        for version, mention in enumerate(mention_ids(topic)):
            annotation_operation_apply(
                annotation_id=assignment.annotation.pk,
                user=assignment.user,
                payload={"op": "assign", "mention": mention, "cluster": None},
                expected_version=version,
            )
        assignment_submit(assignment_id=assignment.pk, user=assignment.user)
    _, draft = assign(topic, late)  # not submitted yet
    _, elsewhere = assign(other_topic, annotator)
    # Through the admin API, as an admin assigns an adjudicator by hand.
    created = signed_in(admin).post(
        "/api/assignments/",
        {
            "project": topic.project_id,
            "topics": [topic.pk],
            "users": [adjudicator.pk],
            "role": "adjudicator",
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    adjudication = Assignment.objects.get(user=adjudicator).annotation
    return locals()


def test_an_adjudicator_reads_the_annotators_work_on_the_topic_they_adjudicate(world):
    adjudicator = signed_in(world["adjudicator"])

    for annotation in (world["work"], world["colleague_work"], world["adjudication"]):
        assert adjudicator.get(f"/api/annotations/{annotation.pk}/").status_code == 200
    assert adjudicator.get(f"/api/annotations/{world['work'].pk}/operations/").status_code == 200


def test_an_adjudicator_reads_no_unsubmitted_work_nor_its_log(world):
    adjudicator = signed_in(world["adjudicator"])
    draft = world["draft"]

    assert adjudicator.get(f"/api/annotations/{draft.pk}/").status_code == 404
    assert adjudicator.get(f"/api/annotations/{draft.pk}/operations/").status_code == 404
    assert adjudicator.get(f"/api/annotations/{draft.pk}/suggestions/").status_code == 404


def test_an_adjudicator_sees_nothing_of_other_topics(world):
    answer = signed_in(world["adjudicator"]).get(f"/api/annotations/{world['elsewhere'].pk}/")

    assert answer.status_code == 404


def test_an_adjudicator_cannot_change_an_annotators_work(world):
    work = world["work"]
    m = mention_ids(work.topic)
    work.refresh_from_db()
    before = work.version

    answer = signed_in(world["adjudicator"]).post(
        f"/api/annotations/{work.pk}/operations/",
        {
            "expected_version": before,
            "operation": {"op": "assign", "mention": m[0], "cluster": None},
        },
        format="json",
    )

    assert answer.status_code == 404
    work.refresh_from_db()
    assert work.version == before


def test_annotators_still_never_see_each_others_work(world):
    answer = signed_in(world["annotator"]).get(f"/api/annotations/{world['colleague_work'].pk}/")

    assert answer.status_code == 404
