"""A topic's payload lists its candidate mentions (built as one JSON array by PostgreSQL) in
their order, with their spans, and never a mention an annotator added in their annotation."""

import pytest

from annotation.models import Document, Mention
from annotation.selectors.workspace import topic_payload
from annotation.services.operations import annotation_operation_apply
from tests.factories import ProjectFactory, UserFactory, assign, make_topic

pytestmark = pytest.mark.django_db


def test_the_topic_lists_its_candidates_in_order_without_an_annotators_added_mention():
    project = ProjectFactory(hierarchy=False, anaphora=True, allow_add_mentions=True)
    topic = make_topic(project)
    # Positions reversed against ids: the payload follows the position.
    mentions = list(Mention.objects.filter(topic=topic).order_by("id"))
    for position, mention in enumerate(reversed(mentions)):
        Mention.objects.filter(pk=mention.pk).update(position=position)
    user = UserFactory()
    _, annotation = assign(topic, user)
    document = Document.objects.get(topic=topic, position=2).pk
    annotation_operation_apply(
        annotation_id=annotation.pk,
        user=user,
        payload={"op": "add_mention", "document": document, "spans": [[3, 3]]},
        expected_version=0,
    )
    assert Mention.objects.filter(topic=topic, added_in__isnull=False).count() == 1

    assert topic_payload(topic)["mentions"] == [
        {"id": m.pk, "document": m.document_id, "spans": m.spans} for m in reversed(mentions)
    ]
