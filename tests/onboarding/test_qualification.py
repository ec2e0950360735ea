"""Qualification: until an annotator passes the practice topics, their real assignments are
locked with a message that says why; admins see state and attempts and override by hand."""

import pytest

from modelserve.models import SuggestionRun
from onboarding.models import PracticeTopic, QualificationChange
from tests.factories import (
    AdminFactory,
    UserFactory,
    assign,
    make_topic,
    mention_ids,
    post_op,
    signed_in,
)
from tests.onboarding.conftest import mentions_by_text, tutorial_practice
from tests.onboarding.test_scored import annotate

pytestmark = pytest.mark.django_db


@pytest.fixture
def gated():
    practice = tutorial_practice(mode="scored")
    project = practice.topic.project
    admin = signed_in(AdminFactory())
    rule = admin.put(
        f"/api/onboarding/projects/{project.pk}/rule/",
        {"practice_topics": [practice.pk], "thresholds": {"conll_f1": 0.75, "muc_f1": 0.5}},
        format="json",
    )
    assert rule.status_code == 200, rule.content
    user = UserFactory()
    real = make_topic(project, external_id="real-1")
    real_assignment, real_annotation = assign(real, user)
    practice_assignment, practice_annotation = assign(practice.topic, user)
    return {
        "practice": practice,
        "project": project,
        "admin": admin,
        "user": user,
        "client": signed_in(user),
        "real": (real, real_assignment, real_annotation),
        "practice_assignment": (practice_assignment, practice_annotation),
    }


def my_rows(client):
    return {row["topic"]["external_id"]: row for row in client.get("/api/assignments/mine/").json()}


def pass_practice(g, *, right=True):
    assignment, annotation = g["practice_assignment"]
    annotate(g["client"], annotation.pk, mentions_by_text(g["practice"].topic), right=right)
    assert g["client"].post(f"/api/assignments/{assignment.pk}/submit/").status_code == 200


def test_a_real_topic_is_locked_with_the_reason_until_the_annotator_qualifies(gated):
    rows = my_rows(gated["client"])

    assert rows["scientific_onboarding_tutorial"]["locked"] is None
    assert rows["scientific_onboarding_tutorial"]["practice"] == "scored"
    assert rows["real-1"]["locked"] == (
        "Locked until you qualify for Onboarding: pass the practice topic "
        "scientific_onboarding_tutorial with CoNLL F1 ≥ 75 and MUC F1 ≥ 50."
    )
    assert list(rows)[-1] == "real-1"  # locked rows come last


def test_a_locked_topic_refuses_edits_and_submission(gated):
    real, assignment, annotation = gated["real"]
    client = gated["client"]

    edit = post_op(
        client, annotation.pk, 0, op="assign", mention=mention_ids(real)[0], cluster=None
    )
    submit = client.post(f"/api/assignments/{assignment.pk}/submit/")

    assert edit.status_code == 423
    assert edit.json()["message"].startswith("Locked until you qualify for Onboarding")
    assert submit.status_code == 423


def test_a_locked_annotator_cannot_ask_for_suggestions_on_a_locked_topic(gated):
    real, _, _ = gated["real"]

    answer = gated["client"].post(f"/api/topics/{real.pk}/suggestion-runs/", {}, format="json")

    assert answer.status_code == 423, answer.content
    assert answer.json()["message"].startswith("Locked until you qualify for Onboarding")
    assert not SuggestionRun.objects.filter(topic=real).exists()


def test_failing_the_practice_keeps_the_lock(gated):
    pass_practice(gated, right=False)

    assert my_rows(gated["client"])["real-1"]["locked"] is not None


def test_passing_the_practice_unlocks_real_work(gated):
    pass_practice(gated)
    real, _assignment, annotation = gated["real"]

    edit = post_op(
        gated["client"], annotation.pk, 0, op="assign", mention=mention_ids(real)[0], cluster=None
    )

    assert my_rows(gated["client"])["real-1"]["locked"] is None
    assert edit.status_code == 200
    change = QualificationChange.objects.get()
    assert (change.qualified, change.source, change.actor) == (True, "practice", None)


def test_admins_see_state_and_attempts_and_qualify_by_hand_which_is_logged(gated):
    admin, project, user = gated["admin"], gated["project"], gated["user"]
    pass_practice(gated, right=False)

    before = admin.get(f"/api/onboarding/projects/{project.pk}/").json()
    qualified = admin.post(
        f"/api/onboarding/projects/{project.pk}/users/{user.pk}/",
        {"qualified": True, "note": "trained in person"},
        format="json",
    ).json()

    (row,) = before["annotators"]
    assert row["qualified"] is False
    assert row["attempts"][0]["passed"] is False
    (row,) = qualified["annotators"]
    assert row["qualified"] is True
    assert row["source"] == "manual"
    assert row["log"][0]["note"] == "trained in person"
    assert row["log"][0]["actor"].startswith("admin")
    assert my_rows(gated["client"])["real-1"]["locked"] is None


def test_unqualifying_by_hand_locks_again_until_a_new_pass(gated):
    admin, project, user = gated["admin"], gated["project"], gated["user"]
    pass_practice(gated)
    admin.post(
        f"/api/onboarding/projects/{project.pk}/users/{user.pk}/",
        {"qualified": False},
        format="json",
    )

    assert my_rows(gated["client"])["real-1"]["locked"] is not None
    assert QualificationChange.objects.filter(source="manual", qualified=False).count() == 1


def test_annotators_cannot_change_qualification(gated):
    project, user = gated["project"], gated["user"]

    response = gated["client"].post(
        f"/api/onboarding/projects/{project.pk}/users/{user.pk}/",
        {"qualified": True},
        format="json",
    )

    assert response.status_code == 403


def test_a_project_without_a_rule_locks_nothing():
    topic = make_topic()
    PracticeTopic.objects.create(topic=make_topic(topic.project), mode="scored")
    user = UserFactory()
    assign(topic, user)

    (row,) = signed_in(user).get("/api/assignments/mine/").json()

    assert row["locked"] is None
    assert row["practice"] is None


def test_unknown_metrics_are_refused_in_a_rule(gated):
    response = gated["admin"].put(
        f"/api/onboarding/projects/{gated['project'].pk}/rule/",
        {"practice_topics": [gated["practice"].pk], "thresholds": {"speed": 1}},
        format="json",
    )

    assert response.status_code == 422
    assert "Unknown metric 'speed'" in response.json()["message"]


def test_the_users_list_has_one_row_per_annotator_and_project(gated):
    pass_practice(gated)

    rows = gated["admin"].get("/api/onboarding/users/").json()

    assert [(r["user"], r["project_name"], r["qualified"], r["attempts"]) for r in rows] == [
        (gated["user"].pk, "Onboarding", True, 1)
    ]


def test_a_rule_with_practice_topics_but_no_threshold_is_refused_and_nothing_changes(gated):
    # Without a threshold no attempt can pass (scores.passes is None): everyone stays locked.
    response = gated["admin"].put(
        f"/api/onboarding/projects/{gated['project'].pk}/rule/",
        {"practice_topics": [gated["practice"].pk], "thresholds": {}},
        format="json",
    )

    assert response.status_code == 422
    assert "at least one threshold" in response.json()["message"]
    rule = gated["admin"].get(f"/api/onboarding/projects/{gated['project'].pk}/").json()["rule"]
    assert rule["thresholds"] == {"conll_f1": 0.75, "muc_f1": 0.5}
