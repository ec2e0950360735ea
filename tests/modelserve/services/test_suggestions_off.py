"""The model cannot pass a qualification test for an annotator. No suggestion run
on a practice topic (for anyone), and a project setting turns suggestions off for its real
topics too (to measure raw agreement). Refused with the reason; nothing is queued."""

from __future__ import annotations

import pytest

from modelserve.models import SuggestionRun
from modelserve.services.runs import project_runs_request
from tests.factories import AdminFactory, UserFactory, assign, make_topic, signed_in
from tests.onboarding.conftest import tutorial_practice

pytestmark = pytest.mark.django_db


def ask(user, topic):
    return signed_in(user).post(f"/api/topics/{topic.pk}/suggestion-runs/", {}, format="json")


@pytest.mark.parametrize("mode", ["scored", "guided"])
def test_no_suggestion_run_on_a_practice_topic_for_annotators_or_admins(mode):
    practice = tutorial_practice(mode=mode)
    user = UserFactory()
    assign(practice.topic, user)

    for who in (user, AdminFactory()):
        answer = ask(who, practice.topic)
        assert answer.status_code == 422, answer.content
        assert "practice topics" in answer.json()["message"]
    assert not SuggestionRun.objects.exists()


def test_a_project_with_suggestions_off_refuses_runs_on_its_real_topics():
    topic = make_topic()
    topic.project.suggestions = False
    topic.project.save()
    user = UserFactory()
    assign(topic, user)

    answer = ask(user, topic)

    assert answer.status_code == 422
    assert "Suggestions are off in this project" in answer.json()["message"]
    assert not SuggestionRun.objects.exists()


def test_a_project_wide_run_leaves_the_practice_topics_out():
    practice = tutorial_practice(mode="scored")
    real = make_topic(practice.topic.project, external_id="real")

    runs = project_runs_request(project=practice.topic.project, user=AdminFactory())

    assert [run.topic_id for run in runs] == [real.pk]


def test_the_workspace_says_why_suggestions_are_off():
    practice = tutorial_practice(mode="scored")
    real = make_topic(practice.topic.project, external_id="real")
    admin = signed_in(AdminFactory())

    off = admin.get(f"/api/topics/{practice.topic.pk}/").json()["suggestions_off"]
    on = admin.get(f"/api/topics/{real.pk}/").json()["suggestions_off"]

    assert "practice topics" in off
    assert on is None
