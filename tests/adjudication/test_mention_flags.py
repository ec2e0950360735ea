"""An annotator flags a mention with a short comment for the adjudicator,
who reads the flags with the annotators' versions. Refusals are JSON 4xx and write nothing."""

from __future__ import annotations

import pytest

from adjudication.models import FLAG_COMMENT_MAX_CHARS, MentionFlag
from adjudication.services.adjudications import create_adjudication
from annotation.models import Assignment, Project
from annotation.services.assignments import assignment_submit
from tests.factories import AdminFactory, UserFactory, assign, make_topic, mention_ids, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    # Links, not clusters: submitting needs no mention placed.
    topic = make_topic(Project.objects.create(name="Flags", hierarchy=False, anaphora=True))
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    (alice_assignment, alice_work), (bob_assignment, _) = assign(topic, alice), assign(topic, bob)
    return {
        "topic": topic,
        "m": mention_ids(topic),
        "alice": alice,
        "bob": bob,
        "work": alice_work,
        "assignments": [alice_assignment, bob_assignment],
    }


def flag_url(world, mention=None) -> str:
    mention = world["m"][2] if mention is None else mention
    return f"/api/annotations/{world['work'].pk}/flags/{mention}/"


def test_an_annotator_flags_a_mention_and_the_adjudicator_reads_it_with_the_versions(world):
    alice = signed_in(world["alice"])

    answer = alice.put(flag_url(world), {"comment": "  a method, not a task?  "}, format="json")

    assert answer.status_code == 200, answer.content
    assert answer.json()["comment"] == "a method, not a task?"
    assert [f["mention"] for f in alice.get(f"/api/annotations/{world['work'].pk}/flags/").json()]
    for assignment, user in zip(world["assignments"], ["alice", "bob"], strict=True):
        assignment_submit(assignment_id=assignment.pk, user=world[user])
    judge = UserFactory(username="judge")
    adjudication = create_adjudication(topic=world["topic"], user=judge, seed="empty")
    versions = signed_in(judge).get(f"/api/annotations/{adjudication.annotation.pk}/versions/")
    flags = {v["annotator"]: v["flags"] for v in versions.json()}
    assert flags == {
        "alice": [{"mention": world["m"][2], "comment": "a method, not a task?"}],
        "bob": [],
    }


def test_flagging_again_replaces_the_comment_and_taking_it_back_removes_it(world):
    alice = signed_in(world["alice"])
    alice.put(flag_url(world), {"comment": "first"}, format="json")
    alice.put(flag_url(world), {"comment": "second"}, format="json")
    assert list(MentionFlag.objects.values_list("comment", flat=True)) == ["second"]

    assert alice.delete(flag_url(world)).status_code == 204
    again = alice.delete(flag_url(world))
    assert again.status_code == 404
    assert "no flag" in again.json()["message"]
    assert not MentionFlag.objects.exists()


@pytest.mark.parametrize(
    ("who", "status"), [("bob", 404), ("admin", 403)], ids=["a colleague", "an admin"]
)
def test_only_the_annotator_may_flag_in_their_annotation(world, who, status):
    user = world["bob"] if who == "bob" else AdminFactory()

    answer = signed_in(user).put(flag_url(world), {"comment": "mine"}, format="json")

    assert answer.status_code == status
    assert not MentionFlag.objects.exists()


def test_a_long_comment_a_foreign_mention_and_submitted_work_are_refused(world):
    alice = signed_in(world["alice"])
    other = mention_ids(make_topic())[0]

    too_long = alice.put(
        flag_url(world), {"comment": "x" * (FLAG_COMMENT_MAX_CHARS + 1)}, format="json"
    )
    foreign = alice.put(flag_url(world, other), {"comment": "?"}, format="json")
    assignment_submit(assignment_id=world["assignments"][0].pk, user=world["alice"])
    locked = alice.put(flag_url(world), {"comment": "late"}, format="json")

    assert (too_long.status_code, too_long.json()["error"]) == (400, "too_long")
    assert "comment: at most 500 characters" in too_long.json()["message"]
    assert foreign.status_code == 404
    assert locked.status_code == 423
    assert not MentionFlag.objects.exists()
    assert Assignment.objects.get(pk=world["assignments"][0].pk).status == "submitted"
