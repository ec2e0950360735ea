"""A practice topic exports back to the CoRefi file it came from, equal to the input."""

import json

import pytest

from annotation.models import Project
from onboarding.selectors.export import practice_corefi
from onboarding.services.practice import practice_import
from tests.factories import AdminFactory, signed_in
from tests.paths import COREFI_DATA

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "name", ["scientific_onboarding_tutorial.json", "guided_mt.json", "guided_sentiment.json"]
)
def test_an_onboarding_file_exports_back_equal_to_the_input(name):
    project = Project.objects.create(name=name, hierarchy=True)
    (practice,) = practice_import(project=project, path=COREFI_DATA / name)

    assert practice.mode == "guided"
    assert practice_corefi(practice.topic) == json.loads((COREFI_DATA / name).read_text())


def test_admins_import_and_export_a_practice_file_over_http():
    admin = AdminFactory()
    project = Project.objects.create(name="p", hierarchy=True)
    client = signed_in(admin)
    path = COREFI_DATA / "scientific_onboarding_tutorial.json"
    with path.open("rb") as upload:
        created = client.post(f"/api/onboarding/projects/{project.pk}/import/", {"file": upload})
    assert created.status_code == 201, created.content
    (row,) = created.json()

    exported = client.get(f"/api/onboarding/topics/{row['topic']}/corefi/")

    assert row["mode"] == "guided"
    assert exported.json() == json.loads(path.read_text())
