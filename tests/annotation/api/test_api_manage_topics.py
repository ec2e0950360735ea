"""The topics page's rows: each topic with its documents, candidate mentions and annotators,
counted in the one query that lists the topics."""

import pytest

from annotation.models import Assignment, Mention, Project
from annotation.selectors.projects import project_topics
from annotation.services.assignments import assignment_create
from tests.factories import UserFactory, make_topic

pytestmark = pytest.mark.django_db


def project_with_counts() -> Project:
    """t1: 3 documents, 7 mentions, 2 annotators and an adjudicator (plus a mention an
    annotator added); t2: 1 document, 2 mentions, nobody."""
    project = Project.objects.create(name="Counted")
    busy = make_topic(project, external_id="t1")
    make_topic(
        project,
        external_id="t2",
        documents=[["A", "b", "."]],
        mentions=[(0, [[0, 0]]), (0, [[1, 1]])],
    )
    first = assignment_create(topic=busy, user=UserFactory())
    assignment_create(topic=busy, user=UserFactory())
    assignment_create(topic=busy, user=UserFactory(), role=Assignment.Role.ADJUDICATOR)
    document = busy.documents.first()
    Mention.objects.create(
        topic=busy, document=document, spans=[[0, 0]], position=99, added_in=first.annotation
    )
    return project


def test_the_topics_endpoint_gives_each_topic_its_documents_mentions_and_annotators(
    admin_client,
):
    project = project_with_counts()

    response = admin_client.get(f"/api/projects/{project.pk}/topics/")

    assert response.status_code == 200
    assert [
        (row["external_id"], row["documents"], row["mentions"], row["annotators"])
        for row in response.json()
    ] == [("t1", 3, 7, 2), ("t2", 1, 2, 0)]


def test_the_counts_of_every_topic_come_from_one_query(django_assert_num_queries):
    project = project_with_counts()
    for i in range(20):
        make_topic(project, external_id=f"more-{i}")

    with django_assert_num_queries(1):
        rows = project_topics(project)

    assert len(rows) == 22
