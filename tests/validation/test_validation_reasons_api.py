"""A validation project's reasons are edited through the project API (the project form), not
only in Django's admin: saved and read back; bad ones refused in words with
nothing written; a key that rejections already give cannot be removed, its label can change.
The report's Topics column counts submitted topics."""

import pytest

from annotation.models import WEC_REASONS, Project
from reporting.selectors.agreement import project_agreement
from tests.factories import UserFactory
from tests.validation.test_validation_measures import validate
from tests.validation.validation_setup import validation_project, validation_topic

pytestmark = pytest.mark.django_db

MINE = [
    {"key": "boundary", "label": "Its span is not the trigger"},
    {"key": "other", "label": "Another event"},
]


def patch(client, project, reasons):
    return client.patch(
        f"/api/projects/{project.pk}/", {"validation_reasons": reasons}, format="json"
    )


def test_the_admin_reads_and_changes_the_reasons(admin_client):
    project = validation_project()
    row = admin_client.get(f"/api/projects/{project.pk}/").json()
    assert row["validation_reasons"] == WEC_REASONS

    response = patch(admin_client, project, MINE)

    assert response.status_code == 200, response.json()
    assert response.json()["validation_reasons"] == MINE
    project.refresh_from_db()
    assert project.validation_reasons == MINE


@pytest.mark.parametrize(
    ("reasons", "says"),
    [
        ([], "at least one reason"),
        ([*MINE, {"key": "c", "label": "c"}, {"key": "d", "label": "d"}], "At most three"),
        ([{"key": "Two words", "label": "x"}], "one word"),
        ([{"key": "dup", "label": "x"}, {"key": "dup", "label": "y"}], "Two reasons have the key"),
    ],
)
def test_bad_reasons_are_refused_in_words_and_nothing_changes(admin_client, reasons, says):
    project = validation_project()

    response = patch(admin_client, project, reasons)

    assert 400 <= response.status_code < 500
    assert says in str(response.json())
    project.refresh_from_db()
    assert project.validation_reasons == WEC_REASONS


def test_a_reason_rejections_give_stays_but_its_label_may_change(admin_client):
    project = validation_project()
    validate(UserFactory(), validation_topic(project), ["a", "trigger", *[None] * 5])
    kept = [{"key": "trigger", "label": "Boundaries miss the trigger"}]

    refused = patch(admin_client, project, MINE)
    relabelled = patch(admin_client, project, kept)

    assert 400 <= refused.status_code < 500, refused.json()
    assert "keep it" in refused.json()["message"]
    assert "'trigger'" in refused.json()["message"]
    assert relabelled.status_code == 200, relabelled.json()
    assert Project.objects.get(pk=project.pk).validation_reasons == kept


def test_the_topics_column_counts_submitted_topics_not_assigned_ones():
    project = validation_project()
    ann = UserFactory(username="ann")
    validate(ann, validation_topic(project), ["a"] * 7)
    validate(ann, validation_topic(project), ["a", *[None] * 6], submit=False)

    (row,) = project_agreement(project)["validation"]["validators"]

    assert row["topics"] == 1
    assert row["decided"] == 8  # decisions count all work so far (docs/validation.md)
