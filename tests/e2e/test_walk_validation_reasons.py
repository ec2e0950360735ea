"""A validation project's rejection reasons fit what its clusters are: the admin's form asks
whether they are scientific concepts or events, and a validator of concepts reads reasons
about a concept's name and broader or narrower concepts, not WEC's trigger phrase and
sub-events. Screenshots in test-artifacts/validation-reasons-*.png."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from annotation.models import CONCEPT_REASONS, Project
from tests.factories import AdminFactory, UserFactory, assign
from tests.validation.validation_setup import validation_topic


def test_a_validation_project_of_concepts_rejects_for_concept_reasons(new_page, artifacts):
    admin = new_page(AdminFactory())
    admin.goto("/manage/projects/new")
    admin.get_by_label("Name").fill("Concepts to validate")
    admin.get_by_label("Validation: accept or reject each mention").check()
    admin.get_by_role("button", name="Create project").click()
    # Not said what the clusters are: nothing is created, and the form says why.
    expect(admin.get_by_test_id("reasons-error")).to_contain_text("Say what the clusters are")
    assert not Project.objects.filter(name="Concepts to validate").exists()
    choice = admin.get_by_test_id("reasons-for")
    choice.get_by_label("scientific concepts (SciCo)").check()
    admin.screenshot(path=str(artifacts / "validation-reasons-1-form.png"), full_page=True)
    admin.get_by_role("button", name="Create project").click()
    expect(admin.get_by_role("heading", name="Concepts to validate")).to_be_visible()
    project = Project.objects.get(name="Concepts to validate")
    assert project.validation_reasons == CONCEPT_REASONS
    assert admin.errors == []

    validator = UserFactory(username="checker")
    _, annotation = assign(validation_topic(project), validator)
    page = new_page(validator)
    page.goto(f"/validate/annotations/{annotation.pk}")
    page.locator("[data-current-mention]").wait_for()
    page.keyboard.press("x")
    reasons = page.locator(".v-reasons")
    expect(reasons).to_be_visible()
    for reason in CONCEPT_REASONS:
        expect(reasons).to_contain_text(reason["label"])
    expect(reasons).not_to_contain_text(re.compile("trigger|event", re.IGNORECASE))
    page.screenshot(path=str(artifacts / "validation-reasons-2-reject.png"))
    assert page.errors == []
