"""The onboarding demo agrees with itself. Its guidelines do not ask for a
hierarchy the tutorial's gold does not have, and metrics that gold cannot support (no edges)
read "not scored", not 0.0 next to "the same as gold". Screenshot:
test-artifacts/walk-demo-scored-passed.png."""

from __future__ import annotations

from playwright.sync_api import expect

from annotation.models import Project
from fixtures.demo.practice import GUIDELINES
from onboarding.models import PracticeAttempt
from onboarding.services.practice import practice_import
from onboarding.services.qualification import qualification_rule_set
from tests.e2e.test_onboarding import annotate, submit
from tests.e2e.workspace import open_workspace
from tests.factories import UserFactory, assign
from tests.onboarding.conftest import TUTORIAL, mentions_by_text


def test_a_right_attempt_on_a_tutorial_without_hierarchy_reads_not_scored(new_page, artifacts):
    project = Project.objects.create(name="Demo agrees", hierarchy=True, guidelines=GUIDELINES)
    (practice,) = practice_import(project=project, path=TUTORIAL, mode="scored")
    qualification_rule_set(
        project=project, practice_topic_ids=[practice.pk], thresholds={"conll_f1": 0.75}
    )
    user = UserFactory(username="follower")
    assignment, _ = assign(practice.topic, user)
    page = new_page(user)

    open_workspace(page, assignment.pk)
    guidelines = page.get_by_test_id("guidelines")
    expect(guidelines).to_contain_text("leave the hierarchy empty there")
    page.keyboard.press("I")
    annotate(page, mentions_by_text(practice.topic), right=True)
    submit(page)

    results = page.get_by_test_id("practice-results")
    expect(results.locator("h2")).to_have_text("Attempt 1: Passed")
    for metric in ("hierarchy_f1", "hierarchy_50_f1", "path_ratio"):
        expect(results.locator(f"tr[data-metric={metric}] td").nth(1)).to_have_text("not scored")
    expect(results.locator("tr[data-metric=conll_f1] td").nth(1)).to_have_text("100.0")
    expect(results).to_contain_text("Your annotation is the same as gold. Not scored: Hierarchy F1")
    page.screenshot(path=str(artifacts / "walk-demo-scored-passed.png"))
    stored = PracticeAttempt.objects.get(practice=practice).scores
    assert stored["hierarchy_f1"] is None
    assert stored["conll_f1"] == 1.0
    assert page.errors == []
