"""The gate cannot be passed by copying: a failed attempt says what was wrong without gold's
answer, attempts are capped per project, after a failure the next attempt is on another
practice topic where the project has one, and an admin sees every attempt."""

from __future__ import annotations

import json

import pytest

from annotation.models import Assignment, Project
from onboarding.models import PracticeAttempt
from onboarding.services.practice import practice_import
from onboarding.services.qualification import qualification_rule_set
from tests.factories import AdminFactory, UserFactory, assign, post_op, signed_in
from tests.onboarding.conftest import TUTORIAL, mentions_by_text
from tests.paths import COREFI_DATA

pytestmark = pytest.mark.django_db

SECOND = COREFI_DATA / "guided_sentiment.json"


def gated(*, attempts_allowed: int | None = 3, second: bool = False):
    """A project whose qualification needs the tutorial (and, with `second`, another scored
    practice topic), both assigned to one annotator."""
    project = Project.objects.create(name="Gated", hierarchy=True)
    practices = practice_import(project=project, path=TUTORIAL, mode="scored")
    if second:
        practices += practice_import(project=project, path=SECOND, mode="scored")
    qualification_rule_set(
        project=project,
        practice_topic_ids=[p.pk for p in practices],
        thresholds={"conll_f1": 0.75},
        attempts_allowed=attempts_allowed,
    )
    user = UserFactory(username="copier")
    assignments = [assign(p.topic, user)[0] for p in practices]
    return project, practices, user, signed_in(user), assignments


def singletons(client, assignment_id: int) -> None:
    """Every mention alone in its own cluster, then submit: the copier's first move."""
    assignment = Assignment.objects.get(pk=assignment_id)
    annotation = assignment.annotation
    mentions = annotation.topic.mentions.order_by("position").values_list("id", flat=True)
    for version, mention in enumerate(mentions):
        answer = post_op(client, annotation.pk, version, op="assign", mention=mention, cluster=None)
        assert answer.status_code == 200, answer.content
    assert client.post(f"/api/assignments/{assignment_id}/submit/").status_code == 200


def test_a_failed_attempt_says_what_was_wrong_by_your_own_clusters_without_gold():
    _project, (practice,), _user, client, (assignment,) = gated()
    singletons(client, assignment.pk)

    body = client.get(f"/api/onboarding/assignments/{assignment.pk}/").json()
    (attempt,) = body["attempts"]
    diff = attempt["diff"]
    m = mentions_by_text(practice.topic)

    assert attempt["passed"] is False
    # Gold keeps CNN and its expansion together: 2 mentions wrong, each alone in a cluster of
    # the annotator's that gold joins with something outside it (not saying with what).
    assert diff["mentions_wrong"] == 2
    assert {(c["label"], c["mixed"], c["split"]) for c in diff["clusters"]} == {
        ("CNN", False, True),
        ("convolutional neural network", False, True),
    }
    assert {c["mention"] for c in diff["clusters"]} == {m["CNN"], m["convolutional neural network"]}
    # Nothing names gold's members: no entry lists the mentions of another cluster.
    assert "gold" not in json.dumps(diff)
    for cluster in diff["clusters"]:
        assert set(cluster) == {"cluster", "label", "size", "mixed", "split", "mention"}
        assert cluster["size"] == 1
    assert body["allowance"] == {"allowed": 3, "used": 1, "left": 2}


def test_attempts_past_the_cap_are_refused_in_plain_words_and_change_nothing():
    _project, _practices, _user, client, (assignment,) = gated(attempts_allowed=2)
    singletons(client, assignment.pk)
    again = client.post(f"/api/onboarding/assignments/{assignment.pk}/reset/").json()
    singletons(client, again["assignment"])

    refused = client.post(f"/api/onboarding/assignments/{again['assignment']}/reset/")

    assert refused.status_code == 403, refused.content
    assert refused.json()["error"] == "practice_attempts_used_up"
    assert "used all 2 practice attempts" in refused.json()["message"]
    assert "ask your admin" in refused.json()["message"]
    assert Assignment.objects.filter(pk=again["assignment"]).exists()  # nothing discarded
    left = client.get(f"/api/onboarding/assignments/{again['assignment']}/").json()["allowance"]
    assert left == {"allowed": 2, "used": 2, "left": 0}


def test_a_reopened_submission_past_the_cap_is_not_scored_again():
    _project, _practices, _user, client, (assignment,) = gated(attempts_allowed=1)
    singletons(client, assignment.pk)
    admin = signed_in(AdminFactory())
    assert admin.post(f"/api/assignments/{assignment.pk}/reopen/").status_code == 200

    resubmit = client.post(f"/api/assignments/{assignment.pk}/submit/")

    assert resubmit.status_code == 403, resubmit.content
    assert "ask your admin" in resubmit.json()["message"]
    assert PracticeAttempt.objects.count() == 1


def test_no_cap_once_qualified_or_when_the_project_sets_none():
    _project, _practices, _user, client, (assignment,) = gated(attempts_allowed=None)
    singletons(client, assignment.pk)
    again = client.post(f"/api/onboarding/assignments/{assignment.pk}/reset/")
    assert again.status_code == 201
    body = client.get(f"/api/onboarding/assignments/{again.json()['assignment']}/").json()
    assert body["allowance"] == {"allowed": None, "used": 1, "left": None}


def test_after_a_failure_the_next_attempt_is_on_another_practice_topic():
    _project, (first, second), _user, client, (a, b) = gated(second=True)
    singletons(client, a.pk)

    drawn = client.post(f"/api/onboarding/assignments/{a.pk}/reset/")

    assert drawn.status_code == 201, drawn.content
    assert drawn.json() == {"assignment": b.pk, "topic": second.topic.external_id}
    # The failed topic stays as it was submitted: it cannot be redone at once.
    assert Assignment.objects.get(pk=a.pk).status == Assignment.Status.SUBMITTED

    singletons(client, b.pk)
    back = client.post(f"/api/onboarding/assignments/{b.pk}/reset/").json()
    assert back["topic"] == first.topic.external_id
    renewed = Assignment.objects.get(pk=back["assignment"])
    assert renewed.status == Assignment.Status.ASSIGNED
    assert renewed.annotation.version == 0


def test_the_admin_sees_every_attempt_who_when_topic_score_and_passed():
    project, (first, second), _user, client, (a, b) = gated(second=True)
    singletons(client, a.pk)
    client.post(f"/api/onboarding/assignments/{a.pk}/reset/")
    singletons(client, b.pk)

    body = signed_in(AdminFactory()).get(f"/api/onboarding/projects/{project.pk}/").json()

    assert body["rule"]["attempts_allowed"] == 3
    (row,) = body["annotators"]
    assert row["username"] == "copier"
    attempts = sorted(row["attempts"], key=lambda t: t["created_at"])
    assert [(t["topic"], t["number"], t["passed"]) for t in attempts] == [
        (first.topic.external_id, 1, False),
        (second.topic.external_id, 1, False),
    ]
    assert all(t["created_at"] and "conll_f1" in t["scores"] for t in attempts)


def test_the_rule_takes_the_cap_and_refuses_zero():
    project, _practices, _user, _client, _assignments = gated()
    admin = signed_in(AdminFactory())
    practice_ids = list(project.topics.values_list("practice__pk", flat=True))

    zero = admin.put(
        f"/api/onboarding/projects/{project.pk}/rule/",
        {"practice_topics": practice_ids, "thresholds": {"conll_f1": 0.75}, "attempts_allowed": 0},
        format="json",
    )
    five = admin.put(
        f"/api/onboarding/projects/{project.pk}/rule/",
        {"practice_topics": practice_ids, "thresholds": {"conll_f1": 0.75}, "attempts_allowed": 5},
        format="json",
    )

    assert zero.status_code == 400
    assert five.status_code == 200
    assert five.json()["rule"]["attempts_allowed"] == 5
