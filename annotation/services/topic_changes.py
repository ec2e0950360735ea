"""An admin renames or deletes a topic from the project's Topics page.

Renaming changes the topic's id as exports and the pages show it (`external_id`, unique in
the project); nothing refers to a topic by that id but the split record's assignment, which
then counts the topic as moved by hand.

Deleting is for a topic nobody worked on yet (a wrong import): it takes the topic's
documents, mentions, imported gold, assignments not started and suggestion runs with it. A
topic with work (an annotator's or adjudicator's annotation with any change, a submitted
assignment) is refused, naming that work: an annotation is not to be lost by a click on a
list. To drop such a topic, remove its assignments first (the Assignments page asks before
discarding work), or leave it out of the dataset by its split.
"""

from __future__ import annotations

from django.db import transaction

from annotation.errors import TopicRefused
from annotation.models import Annotation, Assignment, Topic


def topic_rename(*, topic: Topic, external_id: str) -> Topic:
    name = external_id.strip()
    with transaction.atomic():
        taken = (
            Topic.objects.filter(project_id=topic.project_id, external_id=name)
            .exclude(pk=topic.pk)
            .exists()
        )
        if taken:
            raise TopicRefused(
                f"Another topic of this project is already called {name!r}: choose another id."
            )
        topic.external_id = name
        topic.save(update_fields=["external_id"])
    return topic


def topic_delete(*, topic: Topic) -> None:
    with transaction.atomic():
        locked = Topic.objects.select_for_update().get(pk=topic.pk)
        worked = Annotation.objects.filter(topic=locked).worked().exclude(kind=Annotation.Kind.GOLD)
        submitted = Assignment.objects.filter(
            topic=locked, status=Assignment.Status.SUBMITTED
        ).count()
        changed = worked.count()
        if changed or submitted:
            raise TopicRefused(
                f"Topic {locked.external_id} was not deleted: {_work(changed, submitted)} "
                "would be lost. Remove its assignments first (the Assignments page asks "
                "before discarding work), or leave the topic out of the dataset by its split."
            )
        locked.delete()


def _work(changed: int, submitted: int) -> str:
    parts = []
    if changed:
        parts.append(f"{changed} annotation{'s' if changed != 1 else ''} with changes")
    if submitted:
        parts.append(f"{submitted} submitted assignment{'s' if submitted != 1 else ''}")
    return " and ".join(parts)
