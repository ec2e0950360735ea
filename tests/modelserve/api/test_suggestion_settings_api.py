"""A project's suggestion settings belong to the suggestions app; admins read and set them."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from modelserve.backends import DEFAULT_BACKEND
from tests.factories import ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db
DEFAULT_LEARNING = {"learn_encoder": "", "learn_profile": "default"}


def test_the_suggestion_backends_are_listed_with_the_default(admin_client):
    body = admin_client.get("/api/suggestion-backends/").json()

    assert "minilm" in body["backends"]
    assert body["default"] == DEFAULT_BACKEND
    assert body["default"] in body["backends"]


def test_a_new_project_suggests_with_the_default_backend(admin_client):
    project = ProjectFactory()

    body = admin_client.get(f"/api/projects/{project.pk}/suggestion-settings/").json()

    assert body == {
        "project": project.pk,
        "backend": DEFAULT_BACKEND,
        "params": {},
        "learn": False,  # learning from the project's work is off until an admin turns it on
        "learn_encoder": "",  # the packaged MiniLM
        "learn_profile": "default",
    }


def test_an_admin_sets_the_backend_and_its_parameters(admin_client):
    project = ProjectFactory()
    url = f"/api/projects/{project.pk}/suggestion-settings/"

    put = admin_client.put(url, {"backend": "chemu", "params": {"threshold": 0.6}}, format="json")

    assert put.status_code == 200
    assert admin_client.get(url).json() == {
        "project": project.pk,
        "backend": "chemu",
        "params": {"threshold": 0.6},
        "learn": False,
        "learn_encoder": "",
        "learn_profile": "default",
    }


def test_setting_only_the_parameters_keeps_the_backend(admin_client):
    project = ProjectFactory()
    url = f"/api/projects/{project.pk}/suggestion-settings/"
    admin_client.put(url, {"backend": "chemu"}, format="json")

    admin_client.put(url, {"params": {"threshold": 0.5}}, format="json")

    assert admin_client.get(url).json()["backend"] == "chemu"


def test_an_unknown_backend_is_refused_naming_the_field(admin_client):
    project = ProjectFactory()

    answer = admin_client.put(
        f"/api/projects/{project.pk}/suggestion-settings/", {"backend": "gpt"}, format="json"
    )

    assert answer.status_code == 400
    assert "gpt" in answer.json()["fields"]["backend"][0]


def test_annotators_cannot_read_or_set_suggestion_settings():
    project = ProjectFactory()
    client = APIClient()
    client.force_authenticate(UserFactory())
    url = f"/api/projects/{project.pk}/suggestion-settings/"

    assert client.get(url).status_code == 403
    assert client.put(url, {"backend": "chemu"}, format="json").status_code == 403


def test_the_list_gives_every_project_its_settings_or_the_defaults(admin_client):
    configured, plain = ProjectFactory(name="a"), ProjectFactory(name="b")
    admin_client.put(
        f"/api/projects/{configured.pk}/suggestion-settings/", {"backend": "chemu"}, format="json"
    )

    rows = admin_client.get("/api/suggestion-settings/").json()

    assert rows == [
        {
            "project": configured.pk,
            "backend": "chemu",
            "params": {},
            "learn": False,
            **DEFAULT_LEARNING,
        },
        {
            "project": plain.pk,
            "backend": DEFAULT_BACKEND,
            "params": {},
            "learn": False,
            **DEFAULT_LEARNING,
        },
    ]
