"""Every practice attempt of a project as CSV, written from real submissions:
one row per attempt, the scores the Onboarding tab shows, read back with the csv module."""

from __future__ import annotations

import csv
import io

import pytest

from onboarding.models import PracticeAttempt
from tests.factories import AdminFactory, UserFactory, assign, signed_in
from tests.onboarding.conftest import mentions_by_text, tutorial_practice
from tests.onboarding.test_scored import annotate

pytestmark = pytest.mark.django_db


def test_each_attempt_is_a_row_with_its_user_topic_number_and_scores():
    practice = tutorial_practice(mode="scored")
    project = practice.topic.project
    user = UserFactory(username="zoe")
    client = signed_in(user)
    assignment, annotation = assign(practice.topic, user)
    annotate(client, annotation.pk, mentions_by_text(practice.topic), right=False)
    assert client.post(f"/api/assignments/{assignment.pk}/submit/").status_code == 200

    admin = signed_in(AdminFactory())
    answer = admin.get(f"/api/onboarding/projects/{project.pk}/attempts/csv/")

    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    assert "onboarding-attempts.csv" in answer["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    (attempt,) = PracticeAttempt.objects.filter(practice=practice)
    assert len(rows) == 1
    row = rows[0]
    assert (row["user"], row["topic"], row["mode"], row["attempt"]) == (
        "zoe",
        practice.topic.external_id,
        "scored",
        "1",
    )
    assert row["passed"] == ("" if attempt.passed is None else str(attempt.passed).lower())
    assert float(row["conll_f1"]) == attempt.scores["conll_f1"] < 1.0
    scored = {name for name, value in attempt.scores.items() if value is not None}
    assert scored <= set(row)


def test_annotators_may_not_download_it():
    practice = tutorial_practice(mode="scored")
    answer = signed_in(UserFactory()).get(
        f"/api/onboarding/projects/{practice.topic.project_id}/attempts/csv/"
    )
    assert answer.status_code == 403
