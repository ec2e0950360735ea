"""Factories for tests: users, projects, topics with documents and candidate mentions."""

from __future__ import annotations

import time
from collections.abc import Callable
from io import StringIO
from typing import TypeVar

import factory
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.test import APIClient

from annotation.models import Document, Mention, Project, Topic
from annotation.services.assignments import assignment_create
from annotation.services.imports.topics import topics_import
from datasets.services.splits import dataset_split
from tests.paths import CHEMU_DEMO, DEMO, SCICO_DEMO

PASSWORD = "test-password"
T = TypeVar("T")


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


DEMO_TOPICS = {"scico": SCICO_DEMO, "chemu": CHEMU_DEMO}


def demo_project(
    name: str = "SciCo",
    *,
    format: str = "scico",
    annotators: dict[str, str] | None = None,
    split: list[float] | None = None,
    **fields,
) -> Project:
    """A project of a demo's topics (SciCo's with gold, or ChEMU's); then each annotator's
    file of fixtures/demo imported and submitted under their user name, as
    `import_annotations --create-user --submit` does; then, given ratios, a split (seed 1)."""
    project = Project.objects.create(name=name, **fields)
    topics_import(project=project, path=DEMO_TOPICS[format], format=format)
    for user, file in (annotators or {}).items():
        call_command(
            "import_annotations", "--project", name, "--user", user, "--format", format,
            "--create-user", "--submit", str(DEMO / file), stdout=StringIO(),
        )  # fmt: skip
    if split:
        dataset_split(project=project, ratios=split, seed=1)
    return project


# The SciCo demo's two annotators' versions, as demo_project's `annotators`.
ALICE_AND_BOB = {"alice": "scico_demo_annotator_a.jsonl", "bob": "scico_demo_annotator_b.jsonl"}


def signed_in(user) -> APIClient:
    """An API client that speaks as `user` (authentication itself is the accounts tests')."""
    client = APIClient()
    client.force_authenticate(user)
    return client


def annotating(topic):
    """A fresh annotator's annotation of `topic` and an API client signed in as them: the
    start of most workspace API tests."""
    user = UserFactory()
    _, annotation = assign(topic, user)
    return annotation, signed_in(user)


def post_op(client, annotation, version: int, operation: dict | None = None, /, **fields):
    """POST one operation to an annotation (the row or its id) as the editor does: the
    operation as a dict, or its fields as keywords."""
    pk = getattr(annotation, "pk", annotation)
    return client.post(
        f"/api/annotations/{pk}/operations/",
        {"expected_version": version, "operation": fields if operation is None else operation},
        format="json",
    )


def put_suggestion_settings(project, body: dict):
    """An admin's PUT of the project's suggestion settings."""
    return signed_in(AdminFactory()).put(
        f"/api/projects/{project.pk}/suggestion-settings/", body, format="json"
    )


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


def wait_until(
    check: Callable[[], T],
    what: str = "the awaited state",
    timeout: float = 10.0,
    step: float = 0.1,
) -> T:
    """What `check` returns once it is truthy, polled every `step` s; fails naming `what`
    after `timeout` s. For a job's status, tests/workers.py's wait_for says more."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(step)
    raise AssertionError(f"{what} after {timeout} s")
