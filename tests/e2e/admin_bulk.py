"""An admin's bulk actions over 300 topics in the browser, step by step: shared by the browser
test (which checks what each step did) and `python -m bench admin` (which times them). Each
step returns the seconds from the admin's action to the page showing its result."""

from __future__ import annotations

import time

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from annotation.models import Project, Topic
from tests.factories import UserFactory

TOPICS = 300
ANNOTATORS = ("ann1", "ann2", "ann3")
OVERLAP = 30
ASSIGNMENTS = TOPICS + OVERLAP  # k=2 on the overlap set, one annotator each for the rest


def choose_annotators(page, names) -> None:
    form = page.locator("form.assign-form")
    for name in names:
        form.get_by_label(name, exact=True).check()


def project_with_300_topics(name: str) -> Project:
    """A project of 300 empty topics and the three annotators (created once per database)."""
    project = Project.objects.create(name=name)
    Topic.objects.bulk_create(
        Topic(project=project, external_id=f"t{i:03d}", position=i) for i in range(TOPICS)
    )
    for username in ANNOTATORS:
        if not get_user_model().objects.filter(username=username).exists():
            UserFactory(username=username)
    return project


def _timed(step) -> float:
    start = time.monotonic()
    step()
    return time.monotonic() - start


def open_assignments(page, project: Project) -> float:
    """Seconds from navigation to the assignments page listing every topic."""

    def step():
        page.goto(f"/manage/projects/{project.pk}/assignments")
        page.get_by_role("button", name=f"Select all shown ({TOPICS})").wait_for()

    return _timed(step)


def assign_balanced(page) -> float:
    """Every topic to the three annotators, balanced, k=2 on the overlap set: seconds from the
    click to the matrix showing the new assignments."""
    choose_annotators(page, ANNOTATORS)
    page.get_by_role("button", name=f"Select all shown ({TOPICS})").click()
    page.get_by_label("balanced, with an overlap").check()
    page.get_by_label("number of overlap topics").fill(str(OVERLAP))

    def step():
        page.get_by_role("button", name=f"Assign (up to {ASSIGNMENTS})").click()
        expect(
            page.get_by_role("status").filter(has_text=f"Created {ASSIGNMENTS} assignments")
        ).to_be_visible()
        expect(page.locator(".grid-head")).to_contain_text(f"0/{ASSIGNMENTS // 3} submitted")

    return _timed(step)


def open_progress(page) -> float:
    """Seconds from the click to the progress matrix of 300 topics x 3 annotators."""

    def step():
        page.get_by_role("link", name="Progress").click()
        expect(page.locator(".progress-page .grid-head")).to_contain_text(
            f"0/{ASSIGNMENTS // 3} submitted"
        )

    return _timed(step)


def delete_all(page) -> float:
    """Select every assignment and delete them: seconds from the confirmation to the empty
    matrix."""
    page.get_by_role("link", name="Assignments").click()
    page.get_by_role("button", name=f"Select all shown ({TOPICS})").click()
    page.get_by_role("button", name="Select their assignments").click()
    bar = page.get_by_role("region", name="Selected assignments")
    expect(bar).to_contain_text(f"{ASSIGNMENTS} assignments selected")
    bar.get_by_role("button", name="Delete…").click()

    def step():
        page.get_by_role("dialog").get_by_role("button", name="Delete", exact=True).click()
        expect(
            page.get_by_role("status").filter(has_text=f"Deleted {ASSIGNMENTS} assignments")
        ).to_be_visible()
        expect(page.locator(".cell[data-assignment]")).to_have_count(0)

    return _timed(step)
