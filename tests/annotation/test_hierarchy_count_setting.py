"""The project setting that picks the primary hierarchy F1 (closure or SciCo's raw count):
stored through the admin API, refused when unknown, carried by the agreement report and said
by the datasheet."""

import pytest

from annotation.selectors.agreement import project_agreement
from datasets.datasheet import _agreement
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db


def test_the_admin_sets_the_primary_hierarchy_count_and_the_report_carries_it(admin_client):
    project = ProjectFactory(hierarchy=True)
    assert admin_client.get(f"/api/projects/{project.pk}/").json()["hierarchy_count"] == "closure"

    response = admin_client.patch(
        f"/api/projects/{project.pk}/", {"hierarchy_count": "raw"}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["hierarchy_count"] == "raw"
    project.refresh_from_db()
    assert project_agreement(project)["hierarchy_count"] == "raw"


def test_an_unknown_count_is_refused_and_nothing_changes(admin_client):
    project = ProjectFactory(hierarchy=True)

    response = admin_client.patch(
        f"/api/projects/{project.pk}/", {"hierarchy_count": "both"}, format="json"
    )

    assert response.status_code == 400
    assert "hierarchy_count" in response.json()["fields"]
    project.refresh_from_db()
    assert project.hierarchy_count == "closure"


@pytest.mark.parametrize(
    ("primary", "first"),
    [("closure", "Hierarchy F1 (closure)"), ("raw", "Hierarchy F1 (raw, as SciCo's")],
)
def test_the_datasheet_says_which_count_is_primary(primary, first):
    score = {"avg": 0.8, "std": 0.0, "max_micro": 0.8, "max_macro": 0.8}
    report = {
        "annotators": ["a", "b"],
        "topics": {"t": {}},
        "hierarchy_count": primary,
        "overall": {"hierarchy_f1": score, "hierarchy_f1_raw": score},
    }
    assert f"this project reports {first}" in _agreement(report)
