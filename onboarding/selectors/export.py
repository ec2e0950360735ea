"""A practice topic back as a CoRefi file: its gold annotation, with everything the file held
(tour, messages, settings: the CoRefi reader keeps them in the topic's metadata)."""

from __future__ import annotations

from typing import Any

from annotation.domain.errors import NotFound
from annotation.models import Topic
from annotation.selectors.topic_data import annotation_topic_data
from corefscore.formats.corefi import topic_to_corefi
from onboarding.models import PracticeTopic
from onboarding.selectors.practice import practice_gold


def practice_corefi(topic: Topic) -> dict[str, Any]:
    practice = PracticeTopic.objects.filter(topic=topic).first()
    if practice is None:
        raise NotFound("practice topic", topic.pk, f"{topic.external_id} is not a practice topic.")
    gold = practice_gold(practice)
    if gold is None:
        raise NotFound("gold annotation", topic.pk, f"{topic.external_id} has no gold annotation.")
    return topic_to_corefi(annotation_topic_data(gold))
