"""Retyping links through the API (real PostgreSQL): one operation in the log, one undo back,
a refusal in the annotator's words that writes nothing."""

import pytest

from annotation.infra import state_cache
from annotation.models import Annotation
from annotation.selectors.state import annotation_state_load
from tests.factories import (
    ProjectFactory,
    annotating,
    make_topic,
    mention_ids,
    post_op,
)

pytestmark = pytest.mark.django_db


def workspace():
    state_cache.clear()
    topic = make_topic(ProjectFactory(anaphora=True))
    annotation, client = annotating(topic)
    return client, annotation, mention_ids(topic)


def link(type, anaphor, antecedent):
    return {"type": type, "anaphor": anaphor, "antecedent": antecedent}


def stored_links(annotation):
    state_cache.clear()  # read back from the log, not from the cache the service filled
    return set(annotation_state_load(Annotation.objects.get(pk=annotation.pk)).links)


def test_a_chosen_set_is_retyped_as_one_operation_and_one_undo_restores_it():
    client, annotation, m = workspace()
    post_op(client, annotation, 0, {"op": "add_link", **link("COREFERENCE", m[6], m[5])})
    post_op(client, annotation, 1, {"op": "add_link", **link("CONTAINED", m[4], m[2])})
    chosen = [link("COREFERENCE", m[6], m[5]), link("CONTAINED", m[4], m[2])]

    response = post_op(
        client, annotation, 2, {"op": "retype_links", "type": "WORK_UP", "links": chosen}
    )

    assert response.status_code == 200, response.json()
    assert response.json()["version"] == 3
    assert stored_links(annotation) == {("WORK_UP", m[6], m[5]), ("WORK_UP", m[4], m[2])}
    undo = client.post(
        f"/api/annotations/{annotation.pk}/undo/", {"expected_version": 3}, format="json"
    )
    assert undo.status_code == 200, undo.json()
    assert stored_links(annotation) == {("COREFERENCE", m[6], m[5]), ("CONTAINED", m[4], m[2])}


def test_a_retype_onto_an_existing_link_is_refused_and_writes_nothing():
    client, annotation, m = workspace()
    post_op(client, annotation, 0, {"op": "add_link", **link("COREFERENCE", m[6], m[5])})
    post_op(client, annotation, 1, {"op": "add_link", **link("CONTAINED", m[6], m[5])})
    operation = {
        "op": "retype_links",
        "type": "CONTAINED",
        "links": [link("COREFERENCE", m[6], m[5])],
    }

    response = post_op(client, annotation, 2, operation)

    assert response.status_code == 422
    assert response.json()["rule"] == "duplicate"
    assert response.json()["message"] == (
        'There is already a CONTAINED link from "the mixture" (document 3, word 6) to '
        '"The mixture" (document 3, word 1).'
    )
    assert Annotation.objects.get(pk=annotation.pk).version == 2
    assert stored_links(annotation) == {("COREFERENCE", m[6], m[5]), ("CONTAINED", m[6], m[5])}
