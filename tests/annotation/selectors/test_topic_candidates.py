"""A topic's payload lists its candidate mentions (built as one JSON array by PostgreSQL) in
their order, with their spans, and never a mention an annotator added in their annotation;
an annotation's state (loaded the same way) holds the candidates and its own added ones."""

import pytest

from annotation.models import Annotation, Document, Mention
from annotation.selectors.state import annotation_state_load
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


def test_an_annotation_loads_the_candidates_and_its_own_added_mention_not_anothers():
    project = ProjectFactory(hierarchy=False, anaphora=True, allow_add_mentions=True)
    topic = make_topic(project)
    document = Document.objects.get(topic=topic, position=2).pk
    annotations = []
    for start in (3, 4):
        user = UserFactory()
        _, annotation = assign(topic, user)
        annotation_operation_apply(
            annotation_id=annotation.pk,
            user=user,
            payload={"op": "add_mention", "document": document, "spans": [[start, start]]},
            expected_version=0,
        )
        annotations.append(annotation)
    mine, theirs = (Mention.objects.get(topic=topic, added_in=a).pk for a in annotations)

    state = annotation_state_load(Annotation.objects.get(pk=annotations[0].pk))

    candidates = list(
        Mention.objects.filter(topic=topic, added_in=None).values_list("id", flat=True)
    )
    assert list(state.mentions) == [*candidates, mine]
    assert state.mentions[mine].added
    assert state.mentions[mine].spans == ((3, 3),)
    assert theirs not in state.mentions
