"""An admin sets the qualification rule on the Onboarding tab. The threshold is
typed in percent (the scale the practice results show, "≥ 75.0"), a saved rule is confirmed
on screen in the words annotators read, an edit of it holds, and a save that cannot work says
why and changes nothing. Screenshots in test-artifacts/walk-rule-*.png."""

from __future__ import annotations

from playwright.sync_api import expect

from annotation.models import Project
from onboarding.models import QualificationRule
from onboarding.services.practice import practice_import
from tests.factories import AdminFactory
from tests.onboarding.conftest import TUTORIAL


def rule_of(project) -> dict:
    rule = QualificationRule.objects.filter(project=project).first()
    return {} if rule is None else dict(rule.thresholds)


def test_an_admin_sets_edits_and_is_told_about_the_qualification_rule(new_page, artifacts):
    project = Project.objects.create(name="Rule from the UI", hierarchy=True)
    (practice,) = practice_import(project=project, path=TUTORIAL, mode="scored")
    page = new_page(AdminFactory(username="ruler"))
    page.goto(f"/manage/projects/{project.pk}/onboarding")
    rule = page.get_by_test_id("qualification-rule")
    rule.get_by_role("checkbox", name="scientific_onboarding_tutorial").check()
    conll = rule.get_by_label("CoNLL F1 threshold (%)")

    # A practice topic without a threshold could never be passed: refused, with the reason.
    rule.get_by_role("button", name="Save the qualification rule").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Not saved")
    expect(alert).to_contain_text("at least one threshold")
    assert rule_of(project) == {}
    page.screenshot(path=str(artifacts / "walk-rule-1-refused-without-threshold.png"))

    # Out of the scale: refused and said so.
    conll.fill("750")
    rule.get_by_role("button", name="Save the qualification rule").click()
    expect(page.get_by_role("alert")).to_contain_text("must be a number from 0 to 100")
    assert rule_of(project) == {}

    # 75 (percent) is saved as 0.75 and confirmed in the annotators' words.
    conll.fill("75")
    rule.get_by_role("button", name="Save the qualification rule").click()
    status = page.get_by_role("status").filter(has_text="Saved")
    expect(status).to_contain_text("CoNLL F1 ≥ 75")
    assert rule_of(project) == {"conll_f1": 0.75}
    page.screenshot(path=str(artifacts / "walk-rule-2-saved.png"), full_page=True)

    # Opened again, the form shows the same scale; an edit holds.
    page.reload()
    expect(conll).to_have_value("75")
    conll.fill("80")
    rule.get_by_role("button", name="Save the qualification rule").click()
    expect(page.get_by_role("status").filter(has_text="Saved")).to_contain_text("CoNLL F1 ≥ 80")
    assert rule_of(project) == {"conll_f1": 0.8}
    page.reload()
    expect(conll).to_have_value("80")
    page.screenshot(path=str(artifacts / "walk-rule-3-edited.png"), full_page=True)
    assert practice.pk in set(
        QualificationRule.objects.get(project=project).practice_topics.values_list("pk", flat=True)
    )
    assert page.errors == []
