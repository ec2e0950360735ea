"""Notes and attributes on links and clusters through the API, on PostgreSQL: written to
their rows, read back into the state and the workspace, undone, refused in the annotator's
words; the project's attribute definitions edited by an admin and checked."""

import pytest

from annotation.infra import state_cache
from annotation.models import Cluster, RelationLink
from tests.factories import (
    ProjectFactory,
    annotating,
    make_topic,
    mention_ids,
    post_op,
)

pytestmark = pytest.mark.django_db

ATTRIBUTES = [{"name": "certainty", "values": ["high", "low"]}]


def workspace():
    state_cache.clear()
    project = ProjectFactory(anaphora=True, attributes=ATTRIBUTES)
    topic = make_topic(project)
    annotation, client = annotating(topic)
    return client, annotation, mention_ids(topic)


def test_a_note_and_an_attribute_are_stored_shown_and_undone():
    client, annotation, m = workspace()
    link = {"type": "COREFERENCE", "anaphor": m[6], "antecedent": m[5]}
    assert post_op(client, annotation, 0, op="add_link", **link).status_code == 200
    assert (
        post_op(client, annotation, 1, op="set_link_note", **link, note="same").status_code == 200
    )
    response = post_op(
        client, annotation, 2, op="set_link_attribute", **link, name="certainty", value="low"
    )
    assert response.status_code == 200

    row = RelationLink.objects.get(annotation=annotation)
    assert (row.note, row.attributes) == ("same", {"certainty": "low"})
    state_cache.clear()  # read back from the rows, not from the cache
    payload = client.get(f"/api/annotations/{annotation.pk}/").json()
    assert payload["link_details"] == [{**link, "note": "same", "attributes": {"certainty": "low"}}]

    undo = client.post(
        f"/api/annotations/{annotation.pk}/undo/", {"expected_version": 3}, format="json"
    )
    assert undo.status_code == 200
    assert RelationLink.objects.get(annotation=annotation).attributes == {}


def test_removing_a_noted_link_and_undoing_it_restores_the_row_s_note():
    client, annotation, m = workspace()
    link = {"type": "COREFERENCE", "anaphor": m[6], "antecedent": m[5]}
    post_op(client, annotation, 0, op="add_link", **link)
    post_op(client, annotation, 1, op="set_link_note", **link, note="same")
    assert post_op(client, annotation, 2, op="remove_link", **link).status_code == 200
    assert not RelationLink.objects.filter(annotation=annotation).exists()
    client.post(f"/api/annotations/{annotation.pk}/undo/", {"expected_version": 3}, format="json")
    assert RelationLink.objects.get(annotation=annotation).note == "same"


def test_an_unknown_value_is_refused_naming_the_allowed_ones_and_nothing_is_written():
    client, annotation, m = workspace()
    link = {"type": "COREFERENCE", "anaphor": m[6], "antecedent": m[5]}
    post_op(client, annotation, 0, op="add_link", **link)
    response = post_op(
        client, annotation, 1, op="set_link_attribute", **link, name="certainty", value="sure"
    )
    assert response.status_code == 400
    assert response.json()["message"] == ("value: certainty must be one of high, low, not 'sure'")
    annotation.refresh_from_db()
    assert annotation.version == 1
    assert RelationLink.objects.get(annotation=annotation).attributes == {}


def test_a_cluster_attribute_is_stored_on_its_row():
    client, annotation, m = workspace()
    created = post_op(client, annotation, 0, op="assign", mention=m[0], cluster=None).json()
    cluster = created["created"]["cluster"]
    response = post_op(
        client,
        annotation,
        1,
        op="set_cluster_attribute",
        cluster=cluster,
        name="certainty",
        value="high",
    )
    assert response.status_code == 200
    assert Cluster.objects.get(pk=cluster).attributes == {"certainty": "high"}


def test_an_admin_defines_attributes_and_the_workspace_gets_them(admin_client):
    client, annotation, _ = workspace()
    project = annotation.topic.project
    defined = [{"name": "certainty", "values": ["high", "medium", "low"]}]
    response = admin_client.patch(
        f"/api/projects/{project.pk}/", {"attributes": defined}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["attributes"] == defined
    topic = client.get(f"/api/topics/{annotation.topic_id}/").json()
    assert topic["project"]["attributes"] == defined


@pytest.mark.parametrize(
    ("attributes", "words"),
    [
        ([{"name": "certainty", "values": []}], "needs 1 to 9 values"),
        ([{"name": "a", "values": ["x"]}, {"name": "a", "values": ["y"]}], "Two attributes"),
        ([{"name": "certainty", "values": ["high", "high"]}], "lists the value 'high' twice"),
        ([{"name": "two words", "values": ["x"]}], "one word"),
    ],
)
def test_bad_definitions_are_refused_with_json(admin_client, attributes, words):
    project = ProjectFactory(anaphora=True)
    response = admin_client.patch(
        f"/api/projects/{project.pk}/", {"attributes": attributes}, format="json"
    )
    assert 400 <= response.status_code < 500
    assert words in str(response.json())
    project.refresh_from_db()
    assert project.attributes == []


def test_a_value_links_carry_cannot_be_removed(admin_client):
    client, annotation, m = workspace()
    link = {"type": "COREFERENCE", "anaphor": m[6], "antecedent": m[5]}
    post_op(client, annotation, 0, op="add_link", **link)
    post_op(client, annotation, 1, op="set_link_attribute", **link, name="certainty", value="low")
    project = annotation.topic.project
    response = admin_client.patch(
        f"/api/projects/{project.pk}/",
        {"attributes": [{"name": "certainty", "values": ["high"]}]},
        format="json",
    )
    assert 400 <= response.status_code < 500
    assert "already have certainty 'low'" in response.json()["message"]
