"""The per-process state cache: one holder at a time, and keyed by the project's flags."""

import pytest

from annotation.infra import state_cache
from annotation.models import Annotation
from annotation.selectors.state import annotation_state_read, project_settings
from annotation.services.operations import annotation_operation_apply
from annotation.services.projects import project_update
from tests.factories import UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def setup():
    state_cache.clear()
    topic = make_topic()
    user = UserFactory()
    _, annotation = assign(topic, user)
    return annotation, user, mention_ids(topic)


def fresh(annotation):
    return Annotation.objects.select_related("topic__project").get(pk=annotation.pk)


def test_an_operation_never_mutates_the_state_a_reader_is_reading(setup):
    annotation, user, m = setup
    with annotation_state_read(fresh(annotation)):
        pass  # now cached, as after any page load

    with annotation_state_read(fresh(annotation)) as read:
        annotation_operation_apply(
            annotation_id=annotation.pk,
            user=user,
            payload={"op": "assign", "mention": m[0], "cluster": None},
            expected_version=0,
        )
        assert read.clusters == {}, "the operation changed the state under its reader"

    with annotation_state_read(fresh(annotation)) as after:
        assert len(after.clusters) == 1


def test_a_reader_gives_back_no_older_state_than_an_operation_stored(setup):
    annotation, user, m = setup
    with annotation_state_read(fresh(annotation)) as old:
        annotation_operation_apply(
            annotation_id=annotation.pk,
            user=user,
            payload={"op": "assign", "mention": m[0], "cluster": None},
            expected_version=0,
        )
    current = fresh(annotation)
    cached = state_cache.take(current.pk, 1, project_settings(current.topic.project))

    assert cached is not None
    assert cached is not old
    assert len(cached.clusters) == 1


def test_a_cached_state_is_not_used_under_changed_project_flags(setup):
    annotation, _, _ = setup
    with annotation_state_read(fresh(annotation)) as before:
        assert before.settings.allow_add_mentions is False

    project_update(project=annotation.topic.project, allow_add_mentions=True)

    with annotation_state_read(fresh(annotation)) as after:
        assert after.settings.allow_add_mentions is True
        assert after is not before
