"""Admins import by upload (errors shown, nothing written), export as a download, and read
the agreement report as JSON and as the same CSV the command writes."""

import io
import zipfile

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from annotation.models import Project, Topic

pytestmark = pytest.mark.django_db

from tests.paths import DEMO as FIXTURES
from tests.paths import SHARED_DATA as DATA


def upload(client, project, name: str, content: bytes, format: str, **extra):
    file = io.BytesIO(content)
    file.name = name
    return client.post(
        f"/api/projects/{project.pk}/imports/",
        {"file": file, "format": format, **extra},
        format="multipart",
    )


def test_uploading_a_scico_file_imports_its_topics_with_gold(admin_client):
    project = Project.objects.create(name="upload")

    response = upload(
        admin_client, project, "demo.jsonl", (FIXTURES / "scico_demo.jsonl").read_bytes(), "scico"
    )

    assert response.status_code == 201, response.content
    assert len(response.json()["topics"]) == Topic.objects.filter(project=project).count() == 6
    assert response.json()["gold"] == 6


def test_a_bad_upload_lists_every_error_with_its_line_and_writes_nothing(admin_client):
    project = Project.objects.create(name="bad upload")
    good = (FIXTURES / "scico_demo.jsonl").read_text().splitlines()[0]
    content = (good + "\n{not json\n").encode()

    response = upload(admin_client, project, "broken.jsonl", content, "scico")

    assert response.status_code == 400
    assert any("broken.jsonl" in e and "line 2" in e for e in response.json()["errors"])
    assert not Topic.objects.filter(project=project).exists()


def test_an_upload_above_the_size_limit_is_refused(admin_client, settings):
    settings.MAX_UPLOAD_BYTES = 100
    project = Project.objects.create(name="big upload")

    response = upload(admin_client, project, "big.jsonl", b"x" * 500, "scico")

    assert response.status_code == 413
    assert not Topic.objects.filter(project=project).exists()


def test_a_zipped_corefi_folder_imports_every_file(admin_client):
    project = Project.objects.create(name="corefi zip")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in ("trial_hmm.json", "trial_speech.json"):
            archive.write(DATA / "corefi" / name, f"corefi/{name}")

    response = upload(admin_client, project, "corefi.zip", buffer.getvalue(), "corefi")

    assert response.status_code == 201, response.content
    assert Topic.objects.filter(project=project).count() == 2


def test_export_downloads_the_gold_as_a_file_that_imports_back(admin_client):
    project = Project.objects.create(name="export me")
    upload(
        admin_client, project, "demo.jsonl", (FIXTURES / "scico_demo.jsonl").read_bytes(), "scico"
    )

    response = admin_client.get(f"/api/projects/{project.pk}/export/?format=scico&source=gold")

    assert response.status_code == 200
    content = b"".join(response.streaming_content)
    again = Project.objects.create(name="imported back")
    assert upload(admin_client, again, "back.jsonl", content, "scico").status_code == 201


def test_a_folder_format_export_downloads_as_a_zip_of_the_folder(admin_client):
    project = Project.objects.create(name="export a folder")
    upload(
        admin_client, project, "demo.jsonl", (FIXTURES / "scico_demo.jsonl").read_bytes(), "scico"
    )

    response = admin_client.get(f"/api/projects/{project.pk}/export/?format=corefi&source=gold")

    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="export a folder-corefi.zip"'
    names = zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    assert len(names) == 6
    assert all(name.endswith(".json") for name in names)


def test_the_agreement_csv_download_equals_the_commands_csv(admin_client, tmp_path):
    from fixtures.demo.load import demo_load

    demo_load(password="pw")
    project = Project.objects.get(name="SciCo agreement demo")

    downloaded = admin_client.get(f"/api/projects/{project.pk}/agreement/?format=csv")
    call_command("agreement", "--project", project.name, "--csv", str(tmp_path / "report.csv"))

    assert downloaded.status_code == 200
    assert downloaded["Content-Type"].startswith("text/csv")
    assert downloaded.content.decode() == (tmp_path / "report.csv").read_text()
    assert admin_client.get(f"/api/projects/{project.pk}/agreement/").json()["overall"]


@pytest.mark.parametrize(
    "path", ["imports/", "export/?format=scico", "agreement/", "agreement/?format=csv"]
)
def test_annotators_cannot_use_the_file_endpoints(path):
    from tests.factories import UserFactory

    project = Project.objects.create(name="private")
    client = APIClient()
    client.force_authenticate(UserFactory())

    method = client.post if path == "imports/" else client.get

    assert method(f"/api/projects/{project.pk}/{path}").status_code == 403
