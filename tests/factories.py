"""Factories for tests: users, projects, topics with documents and candidate mentions."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from annotation.models import Document, Mention, Project, Topic
from annotation.services.assignments import assignment_create

PASSWORD = "test-password"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class AdminFactory(UserFactory):
    username = factory.Sequence(lambda n: f"admin{n}")
    is_staff = True
    is_superuser = True


class ProjectFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Project

    name = factory.Sequence(lambda n: f"project {n}")


DEFAULT_DOCUMENTS = [
    ["We", "train", "a", "CRF", "tagger", "for", "sequence", "tagging", "."],
    ["Sequence", "labeling", "with", "a", "BiLSTM-CRF", "improves", "the", "CRF", "tagger", "."],
    ["The", "mixture", "was", "stirred", "and", "the", "mixture", "was", "cooled", "."],
]
DEFAULT_MENTIONS = [
    (0, [[3, 4]]),
    (0, [[6, 7]]),
    (1, [[0, 1]]),
    (1, [[4, 4]]),
    (1, [[7, 8]]),
    (2, [[0, 1]]),
    (2, [[5, 6]]),
]


def make_topic(
    project: Project | None = None,
    *,
    external_id: str | None = None,
    documents: list[list[str]] | None = None,
    mentions: list[tuple[int, list[list[int]]]] | None = None,
) -> Topic:
    project = project or ProjectFactory.create()
    topic = Topic.objects.create(
        project=project, external_id=external_id or f"topic-{Topic.objects.count() + 1}"
    )
    docs = [
        Document.objects.create(
            topic=topic,
            position=i,
            doc_id=f"doc{i}",
            tokens=tokens,
            token_count=len(tokens),
            metadata={"title": f"Paper {i}"},
        )
        for i, tokens in enumerate(documents or DEFAULT_DOCUMENTS)
    ]
    for position, (doc, spans) in enumerate(mentions if mentions is not None else DEFAULT_MENTIONS):
        Mention.objects.create(topic=topic, document=docs[doc], spans=spans, position=position)
    return topic


def assign(topic: Topic, user):
    """The assignment and its annotation."""
    assignment = assignment_create(topic=topic, user=user)
    return assignment, assignment.annotation


def mention_ids(topic: Topic) -> list[int]:
    return list(topic.mentions.order_by("position").values_list("id", flat=True))
