"""An import refused before it is read says why in the admin's words: an empty
file is not "Invalid input."."""

from __future__ import annotations

import io

import pytest

from annotation.models import Topic
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db


def test_an_empty_file_is_refused_saying_it_is_empty(admin_client):
    project = ProjectFactory(name="Empty upload")
    file = io.BytesIO(b"")
    file.name = "empty.jsonl"

    response = admin_client.post(
        f"/api/projects/{project.pk}/imports/",
        {"file": file, "format": "scico"},
        format="multipart",
    )

    assert response.status_code == 400
    assert response.json()["fields"]["file"] == ["The file is empty: there is nothing to import."]
    assert not Topic.objects.filter(project=project).exists()


def test_no_file_at_all_asks_for_one(admin_client):
    project = ProjectFactory(name="No upload")

    response = admin_client.post(
        f"/api/projects/{project.pk}/imports/", {"format": "scico"}, format="multipart"
    )

    assert response.status_code == 400
    assert response.json()["fields"]["file"] == ["Choose a file to import."]
