"""The Topics page's view-gold, rename and delete: each row names its gold
annotation; a rename refuses an id the project already has; a delete takes a topic nobody
worked on and refuses, naming the work, one that has work."""

from __future__ import annotations

import pytest
from django.utils import timezone

from annotation.models import Annotation, Assignment, Document, Project, Topic
from annotation.services.assignments import assignment_create
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.project(name="Topic changes", hierarchy=True)]


def row(admin_client, project: Project, external_id: str) -> dict:
    rows = admin_client.get(f"/api/projects/{project.pk}/topics/").json()
    return next(r for r in rows if r["external_id"] == external_id)


def test_each_row_names_its_gold_the_adjudication_before_the_imported_one(admin_client, project):
    topic = project.topics.get(external_id="9001")
    imported = Annotation.objects.get(topic=topic, kind=Annotation.Kind.GOLD)
    assert row(admin_client, project, "9001")["gold"] == imported.pk

    judged = assignment_create(topic=topic, user=UserFactory(), role=Assignment.Role.ADJUDICATOR)
    assert row(admin_client, project, "9001")["gold"] == imported.pk  # not submitted yet
    Assignment.objects.filter(pk=judged.pk).update(
        status=Assignment.Status.SUBMITTED, submitted_at=timezone.now()
    )
    assert row(admin_client, project, "9001")["gold"] == judged.annotation.pk

    bare = Topic.objects.create(project=project, external_id="no-gold", position=99)
    assert row(admin_client, project, bare.external_id)["gold"] is None
    # The gold is readable where the link goes: the review page reads the annotation.
    assert admin_client.get(f"/api/annotations/{imported.pk}/").status_code == 200


def test_a_topic_is_renamed_and_a_taken_or_empty_id_is_refused_in_words(admin_client, project):
    topic = project.topics.get(external_id="9001")

    renamed = admin_client.patch(
        f"/api/topics/{topic.pk}/manage/", {"external_id": "  graphs 1 "}, format="json"
    )
    assert renamed.status_code == 200, renamed.content
    assert renamed.json() == {"id": topic.pk, "external_id": "graphs 1"}

    taken = admin_client.patch(
        f"/api/topics/{topic.pk}/manage/", {"external_id": "9002"}, format="json"
    )
    assert taken.status_code == 422
    assert taken.json()["message"] == (
        "Another topic of this project is already called '9002': choose another id."
    )
    empty = admin_client.patch(
        f"/api/topics/{topic.pk}/manage/", {"external_id": "  "}, format="json"
    )
    assert empty.status_code == 400
    assert empty.json()["fields"]["external_id"] == ["A topic id cannot be empty."]
    topic.refresh_from_db()
    assert topic.external_id == "graphs 1"


def test_a_topic_nobody_worked_on_is_deleted_with_what_it_holds(admin_client, project):
    topic = project.topics.get(external_id="9003")
    waiting = assignment_create(topic=topic, user=UserFactory())  # not started

    answer = admin_client.delete(f"/api/topics/{topic.pk}/manage/")

    assert answer.status_code == 204
    assert not Topic.objects.filter(pk=topic.pk).exists()
    assert not Document.objects.filter(topic_id=topic.pk).exists()
    assert not Annotation.objects.filter(topic_id=topic.pk).exists()
    assert not Assignment.objects.filter(pk=waiting.pk).exists()
    assert project.topics.count() == 5


def test_a_topic_with_work_is_not_deleted_and_the_refusal_names_the_work(admin_client, project):
    topic = project.topics.get(external_id="9004")
    started = assignment_create(topic=topic, user=UserFactory())
    Annotation.objects.filter(pk=started.annotation.pk).update(version=3)
    done = assignment_create(topic=topic, user=UserFactory())
    Assignment.objects.filter(pk=done.pk).update(status=Assignment.Status.SUBMITTED)

    answer = admin_client.delete(f"/api/topics/{topic.pk}/manage/")

    assert answer.status_code == 422
    assert answer.json()["message"] == (
        "Topic 9004 was not deleted: 1 annotation with changes and 1 submitted assignment "
        "would be lost. Remove its assignments first (the Assignments page asks before "
        "discarding work), or leave the topic out of the dataset by its split."
    )
    assert Topic.objects.filter(pk=topic.pk).exists()
    assert Assignment.objects.filter(topic=topic).count() == 2
    assert row(admin_client, project, "9004")["work"] == 1
