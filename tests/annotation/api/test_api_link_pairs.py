"""A second link type between the same anaphor and antecedent: a warning that names the
existing link, or a refusal in a project that asks for one; refusals name mentions by text."""

import pytest
from rest_framework.test import APIClient

from annotation.infra import state_cache
from tests.factories import ProjectFactory, UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db


def link_workspace(**project):
    state_cache.clear()
    topic = make_topic(ProjectFactory(anaphora=True, **project))
    user = UserFactory()
    _, annotation = assign(topic, user)
    client = APIClient()
    client.force_authenticate(user)
    return client, annotation, mention_ids(topic)


def add_link(client, annotation, version, type, anaphor, antecedent):
    operation = {"op": "add_link", "type": type, "anaphor": anaphor, "antecedent": antecedent}
    return client.post(
        f"/api/annotations/{annotation.pk}/operations/",
        {"expected_version": version, "operation": operation},
        format="json",
    )


def test_a_second_type_for_a_pair_is_applied_with_a_warning_naming_the_first():
    client, annotation, m = link_workspace()
    add_link(client, annotation, 0, "COREFERENCE", m[6], m[5])

    response = add_link(client, annotation, 1, "CONTAINED", m[6], m[5])

    assert response.status_code == 200
    (warning,) = response.json()["warnings"]
    assert warning == (
        '"the mixture" (document 3, word 6) was already linked to "The mixture" (document 3, '
        "word 1) as COREFERENCE; it is now linked as CONTAINED too. Remove one of the two if "
        "the pair has one relation."
    )


def test_a_project_that_refuses_duplicate_pairs_refuses_the_second_type():
    client, annotation, m = link_workspace(refuse_duplicate_link_pairs=True)
    add_link(client, annotation, 0, "COREFERENCE", m[6], m[5])

    response = add_link(client, annotation, 1, "CONTAINED", m[6], m[5])

    assert response.status_code == 422
    assert response.json()["rule"] == "duplicate_pair"
    assert "as COREFERENCE" in response.json()["message"]


def test_an_order_refusal_names_the_mentions_by_text_and_place():
    client, annotation, m = link_workspace()

    body = add_link(client, annotation, 0, "COREFERENCE", m[5], m[6]).json()

    assert body["rule"] == "order"
    assert '"the mixture" (document 3, word 6)' in body["message"]
    assert '"The mixture" (document 3, word 1)' in body["message"]
    assert "#" not in body["message"]


def test_admins_switch_the_setting_and_the_workspace_reads_it(admin_client):
    project = ProjectFactory(anaphora=True)

    changed = admin_client.patch(
        f"/api/projects/{project.pk}/", {"refuse_duplicate_link_pairs": True}, format="json"
    )
    topic = make_topic(project)

    assert changed.json()["refuse_duplicate_link_pairs"] is True
    payload = admin_client.get(f"/api/topics/{topic.pk}/").json()
    assert payload["project"]["refuse_duplicate_link_pairs"] is True
