"""GET /api/annotations/<adjudication>/versions/: the annotators' submitted versions of the
topic, by username, read-only; only for its adjudicator and admins."""

from __future__ import annotations

import json

import pytest
from rest_framework.renderers import JSONRenderer

from adjudication.api.serializers.versions import AnnotatorVersion
from adjudication.selectors.versions import adjudication_versions
from annotation.models import Annotation, Assignment
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.operations import annotation_operation_apply
from tests.factories import AdminFactory, UserFactory, assign, make_topic, mention_ids, signed_in

pytestmark = pytest.mark.django_db


def apply(annotation: Annotation, user, payload: dict) -> dict[str, int]:
    annotation.refresh_from_db()
    applied = annotation_operation_apply(
        annotation_id=annotation.pk, user=user, payload=payload, expected_version=annotation.version
    )
    return applied.created


def cluster_of(annotation: Annotation, user, mentions: list[int]) -> int:
    cluster = apply(annotation, user, {"op": "assign", "mention": mentions[0], "cluster": None})
    for mention in mentions[1:]:
        apply(annotation, user, {"op": "assign", "mention": mention, "cluster": cluster["cluster"]})
    return cluster["cluster"]


@pytest.fixture
def world():
    topic = make_topic()
    project = topic.project
    project.anaphora = project.allow_add_mentions = project.allow_reject_mentions = True
    project.save()
    m = mention_ids(topic)
    alice, bob, carol = (UserFactory(username=name) for name in ("alice", "bob", "carol"))
    judge = UserFactory(username="judge")
    alice_assignment, alice_work = assign(topic, alice)
    bob_assignment, bob_work = assign(topic, bob)
    assign(topic, carol)  # not submitted: not a version
    # alice: {m0 m1 m2} > {m3 m4}, m5 and m6 alone, a link m6 -> m5; she rejects nothing
    top = cluster_of(alice_work, alice, m[0:3])
    child = cluster_of(alice_work, alice, m[3:5])
    apply(alice_work, alice, {"op": "set_parent", "child": child, "parent": top})
    cluster_of(alice_work, alice, [m[5]])
    cluster_of(alice_work, alice, [m[6]])
    apply(
        alice_work,
        alice,
        {"op": "add_link", "type": "COREFERENCE", "anaphor": m[6], "antecedent": m[5]},
    )
    assignment_submit(assignment_id=alice_assignment.pk, user=alice)
    # bob: rejects m6, adds a mention, one cluster of the rest
    apply(bob_work, bob, {"op": "reject_mention", "mention": m[6]})
    added = apply(
        bob_work,
        bob,
        {
            "op": "add_mention",
            "document": topic.documents.order_by("position")[0].pk,
            "spans": [[0, 0]],
        },
    )
    cluster_of(bob_work, bob, [*m[0:6], added["mention"]])
    assignment_submit(assignment_id=bob_assignment.pk, user=bob)
    adjudication = assignment_create(
        topic=topic, user=judge, role=Assignment.Role.ADJUDICATOR
    ).annotation
    return {**locals()}


def versions(world, user):
    return signed_in(user).get(f"/api/annotations/{world['adjudication'].pk}/versions/")


def test_the_adjudicator_reads_each_submitted_version_by_username(world):
    answer = versions(world, world["judge"])

    assert answer.status_code == 200
    assert [v["annotator"] for v in answer.json()] == ["alice", "bob"]


def test_a_version_holds_the_annotators_clusters_hierarchy_and_links(world):
    m = world["m"]
    alice = versions(world, world["judge"]).json()[0]

    members = sorted(sorted(c["members"]) for c in alice["clusters"])
    assert members == sorted([m[0:3], m[3:5], [m[5]], [m[6]]])
    by_id = {c["id"]: sorted(c["members"]) for c in alice["clusters"]}
    assert [[by_id[p], by_id[c]] for p, c in alice["edges"]] == [[m[0:3], m[3:5]]]
    assert alice["links"] == [["COREFERENCE", m[6], m[5]]]
    assert alice["rejected"] == []
    assert alice["added"] == []


def test_a_version_names_the_mentions_its_annotator_rejected_and_added(world):
    bob = versions(world, world["judge"]).json()[1]
    first_document = world["topic"].documents.order_by("position")[0].pk

    assert bob["rejected"] == [world["m"][6]]
    assert bob["added"] == [
        {"id": bob["added"][0]["id"], "document": first_document, "spans": [[0, 0]]}
    ]
    assert bob["added"][0]["id"] in bob["clusters"][0]["members"]


def test_the_answer_is_what_its_serializer_describes(world):
    answer = versions(world, world["judge"]).json()

    described = AnnotatorVersion(
        adjudication_versions(user=world["judge"], annotation_id=world["adjudication"].pk),
        many=True,
    ).data
    assert answer == json.loads(JSONRenderer().render(described))


def test_an_admin_reads_the_versions_too(world):
    assert versions(world, AdminFactory()).status_code == 200


@pytest.mark.parametrize("who", ["alice", "bob", "carol"])
def test_annotators_of_the_topic_cannot_read_the_versions(world, who):
    assert versions(world, world[who]).status_code == 404


def test_the_adjudicator_of_another_topic_cannot_read_them(world):
    other_judge = UserFactory()
    assignment_create(topic=make_topic(), user=other_judge, role=Assignment.Role.ADJUDICATOR)

    assert versions(world, other_judge).status_code == 404


def test_an_annotators_annotation_has_no_versions(world):
    answer = signed_in(world["judge"]).get(f"/api/annotations/{world['alice_work'].pk}/versions/")

    assert answer.status_code == 404
