"""The statistics page's endpoint (JSON and CSV), the project's splits and one topic's split."""

import csv
import io

import pytest
from rest_framework.test import APIClient

from annotation.models import Topic
from datasets.selectors import project_statistics
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.project(name="stats", split=[0.5, 0.5])]


def test_the_statistics_page_has_the_stats_of_each_split_and_the_charts_figures(
    admin_client, project
):
    answer = admin_client.get(f"/api/projects/{project.pk}/statistics/")

    assert answer.status_code == 200
    body = answer.json()
    expected = project_statistics(project)
    assert body["total"] == expected["total"]
    assert body["splits"] == expected["splits"]
    assert list(body["splits"]) == ["train", "test"]
    assert sum(row["clusters"] for row in body["cluster_sizes"]) == body["total"]["clusters"]
    assert sum(row["topics"] for row in body["depths"]) == body["total"]["topics"]
    assert sum(row["mentions"] for row in body["topics"]) == body["total"]["mentions"]


def test_the_csv_download_has_a_row_per_scope(admin_client, project):
    answer = admin_client.get(f"/api/projects/{project.pk}/statistics/?format=csv")

    assert answer["Content-Type"].startswith("text/csv")
    assert 'filename="stats-statistics.csv"' in answer["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert [row["scope"] for row in rows] == ["total", "train", "test"]
    assert rows[0]["mentions"] == str(project_statistics(project)["total"]["mentions"])


def test_an_unknown_source_is_refused_naming_it(admin_client, project):
    answer = admin_client.get(f"/api/projects/{project.pk}/statistics/?source=nobody")

    assert answer.status_code == 400
    assert "'nobody'" in answer.json()["message"]


def test_an_admin_moves_a_topic_to_another_split_and_the_splits_list_shows_it(
    admin_client, project
):
    topic = Topic.objects.filter(project=project, split="train").first()

    answer = admin_client.patch(f"/api/topics/{topic.pk}/split/", {"split": "dev"}, format="json")

    assert answer.status_code == 200
    assert answer.json() == {"id": topic.pk, "split": "dev"}
    splits = admin_client.get(f"/api/projects/{project.pk}/splits/").json()
    assert splits["names"] == ["train", "test", "dev"]
    assert {"id": topic.pk, "split": "dev"} in splits["topics"]


def test_annotators_may_not_read_statistics_or_change_splits(project):
    client = APIClient()
    client.force_authenticate(UserFactory())
    topic = project.topics.first()

    assert client.get(f"/api/projects/{project.pk}/statistics/").status_code == 403
    assert client.patch(f"/api/topics/{topic.pk}/split/", {"split": "x"}).status_code == 403
