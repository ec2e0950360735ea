"""The diagnosis of disagreement on a topic (docs/diagnosis.md), through the API: the mentions whose
cluster differs, checked against the annotators' own files; gold the same way; CSV; refusals."""

from __future__ import annotations

import csv
from io import StringIO

import pytest

from annotation.models import Document
from corefscore.formats import read
from tests.factories import PASSWORD, AdminFactory, ProjectFactory
from tests.paths import DEMO, SCICO_DEMO

FILES = {"alice": "scico_demo_annotator_a.jsonl", "bob": "scico_demo_annotator_b.jsonl"}
pytestmark = [pytest.mark.django_db, pytest.mark.project(annotators=FILES)]


@pytest.fixture
def admin(client):
    client.login(username=AdminFactory().username, password=PASSWORD)
    return client


def clusters_by_span(path, external_id):
    """(document position, spans) -> the spans of its cluster, from an annotator's file."""
    topic = next(t for t in read("scico", path).topics if t.external_id == external_id)
    members: dict[str, set] = {}
    for mention in topic.mentions:
        members.setdefault(mention.cluster or str(mention.key), set()).add(mention.key)
    return {
        mention.key: frozenset(members[mention.cluster or str(mention.key)])
        for mention in topic.mentions
    }


def differing(first, second):
    return {key for key in first.keys() | second.keys() if first.get(key) != second.get(key)}


def listed(answer, project, external_id):
    position = {
        id: n
        for n, id in enumerate(
            Document.objects.filter(topic__project=project, topic__external_id=external_id)
            .order_by("position", "id")
            .values_list("id", flat=True)
        )
    }
    return {
        (position[m["document"]], tuple(tuple(s) for s in m["spans"])) for m in answer["mentions"]
    }


def test_it_lists_exactly_the_mentions_whose_cluster_differs(project, admin):
    topics = [t.external_id for t in project.topics.order_by("position")]
    found_any = False
    for external_id in topics:
        answer = admin.get(
            f"/api/projects/{project.pk}/agreement/diagnosis/", {"topic": external_id}
        ).json()
        assert [s["name"] for s in answer["sides"]] == ["alice", "bob"]
        alice = clusters_by_span(DEMO / FILES["alice"], external_id)
        bob = clusters_by_span(DEMO / FILES["bob"], external_id)
        assert listed(answer, project, external_id) == differing(alice, bob)
        found_any = found_any or bool(answer["mentions"])
        for item in answer["mentions"]:
            for name in ("alice", "bob"):
                cluster = item["clusters"][name]
                assert cluster is None or item["text"] in cluster["members"]
                assert item["ids"][name] is not None or cluster is None
    assert found_any  # the demo's annotators disagree somewhere


def test_against_gold_one_annotator_at_a_time(project, admin):
    external_id = project.topics.order_by("position").first().external_id
    answer = admin.get(
        f"/api/projects/{project.pk}/agreement/diagnosis/",
        {"topic": external_id, "gold": "1", "annotator": "bob"},
    ).json()
    assert [(s["name"], s["kind"]) for s in answer["sides"]] == [
        ("gold", "gold"),
        ("bob", "annotator"),
    ]
    gold = clusters_by_span(SCICO_DEMO, external_id)
    bob = clusters_by_span(DEMO / FILES["bob"], external_id)
    assert listed(answer, project, external_id) == differing(gold, bob)


def test_the_csv_has_a_row_per_item_and_side(project, admin):
    external_id = project.topics.order_by("position").first().external_id
    url = f"/api/projects/{project.pk}/agreement/diagnosis/"
    answer = admin.get(url, {"topic": external_id}).json()
    download = admin.get(url, {"topic": external_id, "format": "csv"})
    assert download["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(StringIO(download.content.decode())))
    items = len(answer["mentions"]) + len(answer["edges"]) + len(answer["links"])
    assert len(rows) == 2 * items
    assert {row["side"] for row in rows} <= {"alice", "bob"}
    mention_rows = [row for row in rows if row["item"] == "mention"]
    assert [row["what"] for row in mention_rows[::2]] == [m["text"] for m in answer["mentions"]]


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ({}, 400, "topic"),
        ({"topic": "no such topic"}, 404, "no topic"),
        ({"topic": "FIRST", "annotator": "carol"}, 422, "carol has not submitted"),
        ({"topic": "FIRST", "annotator": "alice"}, 422, "needs two"),
        ({"topic": "FIRST", "format": "xml"}, 400, "format"),
    ],
)
def test_bad_questions_get_a_clear_4xx(project, admin, query, status, words):
    first = project.topics.order_by("position").first().external_id
    query = {k: (first if v == "FIRST" else v) for k, v in query.items()}
    answer = admin.get(f"/api/projects/{project.pk}/agreement/diagnosis/", query)
    assert answer.status_code == status
    assert words in str(answer.json()).lower() or words in str(answer.json())


def test_a_topic_without_gold_is_refused_against_gold(admin):
    from annotation.services.imports.topics import topics_import

    project = ProjectFactory(name="no gold")
    topics_import(project=project, path=DEMO / "scico_demo_annotator_a.jsonl", format="scico")
    external_id = project.topics.first().external_id
    project.topics.first().annotations.filter(kind="gold").delete()
    answer = admin.get(
        f"/api/projects/{project.pk}/agreement/diagnosis/", {"topic": external_id, "gold": "1"}
    )
    assert answer.status_code == 422
    assert "has no gold yet" in answer.json()["message"]


def test_only_admins_may_ask(project, client):
    from tests.factories import UserFactory

    client.login(username=UserFactory().username, password=PASSWORD)
    first = project.topics.first().external_id
    answer = client.get(f"/api/projects/{project.pk}/agreement/diagnosis/", {"topic": first})
    assert answer.status_code == 403
