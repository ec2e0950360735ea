"""POST /api/projects/{id}/splits/: the seeded balanced split from the Datasets page, which
keeps an existing split unless asked to replace it."""

import pytest
from rest_framework.test import APIClient

from annotation.models import Topic
from datasets.models import SplitRecord
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.project(name="to split", hierarchy=True)]


def splits(project) -> dict[str, str]:
    return dict(Topic.objects.filter(project=project).values_list("external_id", "split"))


def test_a_split_is_made_with_its_balance_figures(admin_client, project):
    answer = admin_client.post(
        f"/api/projects/{project.pk}/splits/",
        {"ratios": [0.5, 0.5], "seed": 3, "balance": "mentions"},
        format="json",
    )

    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["kept"] is False
    assert [s["name"] for s in body["sizes"]] == ["train", "test"]
    assert sum(s["topics"] for s in body["sizes"]) == project.topics.count()
    assert {(d["split"], d["dimension"]) for d in body["deviations"]} == {
        ("train", "mentions"),
        ("test", "mentions"),
    }
    record = SplitRecord.objects.get(project=project)
    assert (record.seed, record.balance, body["deviation"]) == (3, "mentions", record.deviation)
    assert set(splits(project).values()) == {"train", "test"}


def test_an_existing_split_is_kept_unless_replaced(admin_client, project):
    url = f"/api/projects/{project.pk}/splits/"
    admin_client.post(url, {"ratios": [0.5, 0.5], "seed": 1}, format="json")
    before = splits(project)

    kept = admin_client.post(url, {"ratios": [0.6, 0.2, 0.2], "seed": 2}, format="json")
    assert kept.status_code == 200
    assert kept.json()["kept"] is True
    assert splits(project) == before

    replaced = admin_client.post(
        url, {"ratios": [0.6, 0.2, 0.2], "seed": 2, "replace": True}, format="json"
    )
    assert replaced.status_code == 201
    assert set(splits(project).values()) == {"train", "dev", "test"}


def test_bad_ratios_are_refused_and_change_nothing(admin_client, project):
    answer = admin_client.post(
        f"/api/projects/{project.pk}/splits/", {"ratios": [0.5, 0.6]}, format="json"
    )

    assert answer.status_code == 400
    assert "add up to 1.1" in str(answer.json())
    assert set(splits(project).values()) == {""}
    assert not SplitRecord.objects.filter(project=project).exists()


def test_annotators_may_not_split(project):
    client = APIClient()
    client.force_authenticate(UserFactory())
    answer = client.post(
        f"/api/projects/{project.pk}/splits/", {"ratios": [0.5, 0.5]}, format="json"
    )
    assert answer.status_code == 403
    assert set(splits(project).values()) == {""}
