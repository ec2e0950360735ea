"""A validation topic for tests: the default factory topic, clustered as the input."""

from __future__ import annotations

from annotation.models import Project, Topic
from tests.factories import make_topic, mention_ids
from validation.services.input import ClusterToValidate, validation_input_write


def validation_project(name: str = "validation") -> Project:
    return Project.objects.create(name=name, hierarchy=False, validation=True)


def validation_topic(project: Project | None = None, *, confidences: bool = True) -> Topic:
    """Mentions m0..m6; input clusters {m0, m1, m3, m4} ('CRF tagger') and {m2}, {m5, m6}."""
    topic = make_topic(project or validation_project())
    m = mention_ids(topic)
    scores = (0.9, 0.2, 0.7, 0.5) if confidences else ()
    validation_input_write(
        topic=topic,
        clusters=[
            ClusterToValidate([m[0], m[1], m[3], m[4]], "CRF tagger", scores),
            ClusterToValidate([m[2]]),
            ClusterToValidate([m[5], m[6]], "the mixture"),
        ],
    )
    return topic
