"""Every answer goes out through its output serializer, and the serializer passes what the
selectors build through byte for byte: the schema describes the JSON the interface always got,
and a key a serializer forgot would fail here rather than vanish from the answer."""

import pytest
from rest_framework.renderers import JSONRenderer

from annotation.api.serializers.projects import ProgressPayload
from annotation.api.serializers.projects import Project as ProjectRow
from annotation.api.serializers.workspace import (
    AnnotationPayload,
    Applied,
    AssignmentRow,
    LogEntry,
    TopicPayload,
)
from annotation.models import Annotation, Assignment, Project, Topic
from annotation.selectors.assignments import assignment_rows
from annotation.selectors.progress import project_progress
from annotation.selectors.projects import project_rows
from annotation.selectors.workspace import (
    annotation_log_payload,
    annotation_payload,
    topic_payload,
)
from annotation.services.operations import annotation_operation_apply, annotation_undo
from reporting.api.serializers.agreement import AgreementReport
from reporting.selectors.agreement import project_agreement
from tests.factories import UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db


def unchanged(serializer, payload, many: bool = False) -> bool:
    render = JSONRenderer().render
    return render(serializer(payload, many=many).data) == render(payload)


@pytest.fixture
def demo():
    from fixtures.demo.load import demo_load

    demo_load(password="pw")


def test_topics_and_annotations_with_clusters_edges_and_links_pass_through_unchanged(demo):
    assert Annotation.objects.exclude(links=None).exists()
    for topic in Topic.objects.select_related("project"):
        assert unchanged(TopicPayload, topic_payload(topic)), topic.external_id
    for annotation in Annotation.objects.select_related("assignment", "topic__project"):
        assert unchanged(AnnotationPayload, annotation_payload(annotation)), annotation.pk


def test_admin_rows_progress_and_agreement_pass_through_unchanged(demo):
    assert unchanged(ProjectRow, project_rows(), many=True)
    assert unchanged(AssignmentRow, assignment_rows(), many=True)
    assert Assignment.objects.filter(status="submitted").exists()
    for project in Project.objects.all():
        assert unchanged(ProgressPayload, project_progress(project)), project.name
        assert unchanged(AgreementReport, project_agreement(project)), project.name


def test_applied_changes_and_the_log_pass_through_unchanged():
    topic = make_topic()
    user = UserFactory()
    _, annotation = assign(topic, user)
    first, second = mention_ids(topic)[:2]

    applied = [
        annotation_operation_apply(
            annotation_id=annotation.pk,
            user=user,
            expected_version=0,
            payload={"op": "assign", "mention": first, "cluster": None},
        ),
        annotation_operation_apply(
            annotation_id=annotation.pk,
            user=user,
            expected_version=1,
            payload={"op": "split", "mentions": [first, second]},
            client_id="tab",
        ),
        annotation_undo(annotation_id=annotation.pk, user=user, expected_version=2),
    ]

    for change in applied:
        assert unchanged(Applied, change.as_message())
    annotation.refresh_from_db()
    assert unchanged(LogEntry, annotation_log_payload(annotation), many=True)
