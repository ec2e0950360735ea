"""POST /api/projects/{id}/release/ with the release dialog's choices: formats, source and
names; the job it queues is run here as the worker would run it."""

import zipfile

import pytest
from django.core.files.storage import default_storage
from rest_framework.test import APIClient

from datasets.selectors import release_name
from datasets.services.release_jobs import release_job_run
from tests.factories import AdminFactory

pytestmark = [pytest.mark.django_db, pytest.mark.project(name="release options", hierarchy=True)]


@pytest.mark.django_db(transaction=True)  # the task body runs here as in the worker
def test_the_chosen_formats_and_source_make_the_bundle(project):
    client = APIClient()
    client.force_authenticate(AdminFactory())
    answer = client.post(
        f"/api/projects/{project.pk}/release/",
        {"formats": ["scico", "corefi"], "source": "gold", "with_names": True},
        format="json",
    )

    assert answer.status_code == 202, answer.content
    assert release_job_run(job_id=answer.json()["job"]).startswith("succeeded")
    with default_storage.open(release_name(project)) as stored:
        names = zipfile.ZipFile(stored).namelist()
    assert any(n.startswith("scico/") for n in names)
    assert any(n.startswith("corefi/") for n in names)
    assert not any(n.startswith("conll/") for n in names)


def test_a_format_the_datasheet_cannot_describe_is_refused_not_a_server_error(project):
    client = APIClient()
    client.force_authenticate(AdminFactory())
    answer = client.post(
        f"/api/projects/{project.pk}/release/", {"formats": ["corefud"]}, format="json"
    )
    assert answer.status_code == 400
    assert "'corefud' cannot go in a release" in str(answer.json())
    assert not default_storage.exists(release_name(project))


def test_an_unknown_source_is_refused(project):
    client = APIClient()
    client.force_authenticate(AdminFactory())
    answer = client.post(
        f"/api/projects/{project.pk}/release/", {"source": "everyone"}, format="json"
    )
    assert answer.status_code == 400
    assert "source" in answer.json() or "everyone" in str(answer.json())
    assert not default_storage.exists(release_name(project))
