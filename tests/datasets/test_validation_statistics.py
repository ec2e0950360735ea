"""A validation project (WEC-style) is counted on its validated clusters, and its datasheet
gives the validation decisions."""

import pytest
from django.core.management import call_command

from datasets.selectors import project_statistics
from tests.validation.test_validation_measures import validated_wec_project

pytestmark = [pytest.mark.django_db, pytest.mark.project(build=validated_wec_project)]


def test_the_statistics_count_the_validated_clusters_not_the_input(project):
    total = project_statistics(project)["total"]

    assert (total["mentions"], total["clusters"], total["singletons"]) == (6, 3, 1)


def test_the_datasheet_gives_the_validation_decisions(project, tmp_path):
    call_command("dataset_release", "--project", "WEC", str(tmp_path / "out"))

    datasheet = (tmp_path / "out" / "DATASHEET.md").read_text()
    assert "validation of given clusters (WEC-style)" in datasheet
    # 14 decisions: 7 per validator; 2 + 1 rejected (trigger twice, context once).
    assert (
        "Validation decisions: 14 on 1 topic: 11 accepted, 3 rejected (context 1, trigger 2)"
        in datasheet
    )
    assert "| Clusters (singletons included) | 3 |" in datasheet
