"""The project setting that picks the primary hierarchy F1 (closure, SciCo's; or the raw
edges count, not SciCo's): stored through the admin API, refused when unknown, carried by the
agreement report and said by the datasheet; projects that had the raw count as primary are
migrated to SciCo's count and their admins told."""

import importlib

import pytest
from django.apps import apps

from annotation.models import Project
from datasets.datasheet import _agreement
from reporting.selectors.agreement import project_agreement
from reporting.selectors.agreement_notices import HIERARCHY_COUNT_MOVED
from tests.factories import ProjectFactory

MIGRATION = importlib.import_module("annotation.migrations.0014_hierarchy_count_scico")

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
    [
        (
            "closure",
            (
                "Hierarchy F1 (SciCo, closure) as its primary figure, with Hierarchy F1, "
                "raw edges (not SciCo's) beside it"
            ),
        ),
        ("raw", "Hierarchy F1, raw edges (not SciCo's) as its primary figure"),
    ],
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


def test_the_datasheet_calls_the_closure_count_scicos_and_the_raw_one_not():
    score = {"avg": 0.8, "std": 0.0, "max_micro": 0.8, "max_macro": 0.8}
    report = {
        "annotators": ["a", "b"],
        "topics": {"t": {}},
        "hierarchy_count": "closure",
        "overall": {"hierarchy_f1": score, "hierarchy_f1_raw": score},
    }
    text = _agreement(report)
    assert "| Hierarchy F1 (SciCo, closure) |" in text
    assert "| Hierarchy F1, raw edges (not SciCo's) |" in text
    assert "raw, SciCo" not in text
    assert "as SciCo's evaluate.py" not in text


def test_projects_with_the_raw_count_as_primary_move_to_scicos_and_their_admins_are_told(
    admin_client,
):
    raw = ProjectFactory(hierarchy=True, hierarchy_count="raw")
    closure = ProjectFactory(hierarchy=True)

    MIGRATION.to_closure(apps, None)

    raw.refresh_from_db()
    assert (raw.hierarchy_count, raw.hierarchy_count_migrated) == ("closure", True)
    assert Project.objects.get(pk=closure.pk).hierarchy_count_migrated is False
    page = admin_client.get(f"/api/projects/{raw.pk}/agreement/").json()
    assert page["hierarchy_count"] == "closure"
    assert page["notices"] == [HIERARCHY_COUNT_MOVED]
    assert admin_client.get(f"/api/projects/{closure.pk}/agreement/").json()["notices"] == []

    # choosing the primary count again (whichever) dismisses the notice
    admin_client.patch(f"/api/projects/{raw.pk}/", {"hierarchy_count": "closure"}, format="json")
    assert admin_client.get(f"/api/projects/{raw.pk}/agreement/").json()["notices"] == []


def test_the_migration_goes_back_to_the_raw_count_where_it_moved_it():
    moved = ProjectFactory(hierarchy=True, hierarchy_count="raw")
    MIGRATION.to_closure(apps, None)
    MIGRATION.back_to_raw(apps, None)
    moved.refresh_from_db()
    assert moved.hierarchy_count == "raw"
