"""Onboarding in the browser: guidelines shown once and toggled with I; CoRefi's tutorial in
guided mode (a wrong decision refused with its message and the mention still current, a
right one applied with its message); a scored practice topic failed, what was wrong read (by
the annotator's own clusters), started again, passed, and then the real topic opens.
Screenshots of each step in test-artifacts/."""

from __future__ import annotations

from playwright.sync_api import expect

from annotation.models import Project
from onboarding.services.practice import practice_import
from onboarding.services.qualification import qualification_rule_set
from tests.e2e.workspace import open_workspace, press, wait_saved
from tests.factories import AdminFactory, UserFactory, assign, make_topic
from tests.onboarding.conftest import TUTORIAL, mentions_by_text

GUIDELINES = (
    "# How we link concepts\n\n"
    "Put an **acronym** and its expansion in the same cluster.\n\n"
    "- A task is not the same as a method.\n"
    "- See the [SciCo paper](https://arxiv.org/abs/2104.08809).\n\n"
    "<script>alert('no')</script>"
)


def current(page) -> int:
    return int(page.locator(".m.is-current").first.get_attribute("data-mention"))


def test_an_annotator_goes_through_the_corefi_tutorial_in_guided_mode(new_page, artifacts):
    project = Project.objects.create(name="Onboarding", hierarchy=True, guidelines=GUIDELINES)
    (practice,) = practice_import(project=project, path=TUTORIAL)
    user = UserFactory(username="trainee")
    assignment, _ = assign(practice.topic, user)
    m = mentions_by_text(practice.topic)
    page = new_page(user)

    page.goto("/")
    row = page.locator(f"tr[data-assignment='{assignment.pk}']")
    expect(row.locator(".practice-badge")).to_have_text("practice")
    page.screenshot(path=str(artifacts / "onboarding-01-my-topics-practice.png"), full_page=True)

    # The first time: the guidelines open by themselves, rendered safely.
    open_workspace(page, assignment.pk)
    panel = page.get_by_test_id("guidelines")
    expect(panel.locator("h1")).to_have_text("How we link concepts")
    link = panel.get_by_role("link", name="SciCo paper")
    expect(link).to_have_attribute("target", "_blank")
    expect(link).to_have_attribute("rel", "noopener noreferrer")
    expect(panel).to_contain_text("<script>alert('no')</script>")  # shown as text, not run
    page.screenshot(path=str(artifacts / "onboarding-02-guidelines-first-time.png"))
    press(page, "I")
    expect(panel).to_be_hidden()

    # Then the tour of this screen, step by step, each anchored to the part it names
    # (tests/e2e/test_walk_tour.py walks it with the keyboard).
    tour = page.get_by_test_id("tour")
    expect(tour).to_have_attribute("data-step", "1")
    expect(tour).to_contain_text("Welcome")
    tour.locator(".tour-next").click()
    expect(tour).to_have_attribute("data-target", ".m.is-current")
    expect(tour).to_contain_text("The current mention is underlined in purple.")
    expect(page.locator(".m.is-current.tour-target").first).to_be_visible()
    page.screenshot(path=str(artifacts / "onboarding-03-tour-current-mention.png"))
    tour.locator(".tour-skip").click()
    expect(tour).to_be_hidden()

    # As in CoRefi, CNN (the mention the file asks nothing about) is placed already, its
    # cluster selected; Text Classification into CNN's cluster (SPACE) is wrong.
    expect(page.locator(".bank-row.is-selected")).to_contain_text("CNN")
    assert current(page) == m["Text Classification"]
    press(page, "Space")
    alert = page.locator(".notice-alert").last
    expect(alert).to_contain_text("Not quite! Text classification should be a new cluster!")
    still = page.locator(".m.is-current")
    expect(still).to_have_attribute("data-mention", str(m["Text Classification"]))
    page.screenshot(path=str(artifacts / "onboarding-04-guided-wrong-decision.png"))

    # The right decision: a new cluster, with the file's message, and on to the next mention.
    press(page, "Control+Space")
    wait_saved(page)
    expect(page.locator(".notice-status").last).to_contain_text(
        "Great! You succesfully created a new cluster"
    )
    assert current(page) == m["convolutional neural network"]
    page.screenshot(path=str(artifacts / "onboarding-05-guided-right-decision.png"))

    # Opened again: the guidelines stay closed (seen), and I brings them back.
    open_workspace(page, assignment.pk)
    expect(page.get_by_test_id("guidelines")).to_be_hidden()
    press(page, "I")
    expect(page.get_by_test_id("guidelines")).to_be_visible()
    press(page, "I")
    press(page, "?")
    help_dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(help_dialog).to_contain_text("Show or hide the project's guidelines")
    expect(help_dialog).to_contain_text("Practice results: go to the next difference from gold")
    assert page.errors == []


def annotate(page, m, *, right: bool) -> None:
    """CNN and its expansion together (right) or apart (wrong); the other two alone."""
    press(page, "Control+Space")  # CNN
    press(page, "Control+Space")  # Text Classification
    wait_saved(page)
    if right:
        page.locator(f".m[data-mention='{m['CNN']}']").first.click()  # selects CNN's cluster
        expect(page.locator(".m.is-current")).to_have_attribute(
            "data-mention", str(m["convolutional neural network"])
        )
        press(page, "Space")
    else:
        press(page, "Control+Space")
    press(page, "Control+Space")  # sentiment analysis
    wait_saved(page)


def submit(page) -> None:
    page.get_by_role("button", name="Submit").click()
    dialog = page.get_by_role("dialog", name="Submit this topic?")
    dialog.get_by_role("button", name="Submit").click()
    expect(dialog).to_be_hidden()


def test_an_annotator_fails_a_scored_practice_reads_the_diff_retries_passes_and_opens_real_work(
    new_page, artifacts
):
    project = Project.objects.create(name="Gated project", hierarchy=True)
    (practice,) = practice_import(project=project, path=TUTORIAL, mode="scored")
    qualification_rule_set(
        project=project, practice_topic_ids=[practice.pk], thresholds={"conll_f1": 0.75}
    )
    user = UserFactory(username="learner")
    practice_assignment, _ = assign(practice.topic, user)
    real, _ = assign(make_topic(project, external_id="real-topic"), user)
    m = mentions_by_text(practice.topic)
    page = new_page(user)

    page.goto("/")
    locked = page.locator(f"tr[data-assignment='{real.pk}'] [data-testid=locked]")
    expect(locked).to_contain_text("Locked until you qualify for Gated project")
    expect(locked).to_contain_text("CoNLL F1 ≥ 75")
    expect(page.locator(".next-topic")).to_contain_text("scientific_onboarding_tutorial")
    page.screenshot(
        path=str(artifacts / "onboarding-06-locked-until-qualified.png"), full_page=True
    )
    page.goto(f"/annotate/{real.pk}")
    expect(page.get_by_role("alert")).to_contain_text("Locked until you qualify")

    # A first attempt that keeps CNN and its expansion apart: not passed; the results say what
    # was wrong by the annotator's own clusters, not by gold's members
    # (tests/e2e/test_walk_gate_copy.py plays the copier).
    open_workspace(page, practice_assignment.pk)
    expect(page.get_by_test_id("practice-bar")).to_have_attribute("data-mode", "scored")
    annotate(page, m, right=False)
    submit(page)
    results = page.get_by_test_id("practice-results")
    expect(results).to_have_attribute("data-passed", "false")
    expect(results.locator("h2")).to_have_text("Attempt 1: Not passed yet")
    expect(results.locator("tr[data-metric=conll_f1]")).to_contain_text("≥ 75.0")
    diff = results.get_by_test_id("diff-clusters")
    expect(diff).to_contain_text("gold puts some of its mentions with mentions outside it")
    expect(diff).not_to_contain_text("gold:")
    page.screenshot(path=str(artifacts / "onboarding-07-scored-failed-with-diff.png"))
    diff.get_by_role("button", name="“convolutional neural network”").click()
    expect(page.locator(".m.is-current")).to_have_attribute(
        "data-mention", str(m["convolutional neural network"])
    )
    press(page, "D")
    expect(page.locator(".m.is-current")).to_have_attribute("data-mention", str(m["CNN"]))
    page.screenshot(path=str(artifacts / "onboarding-08-diff-entry-in-the-documents.png"))

    # Try again (the project has no other practice topic to draw): a fresh annotation; the
    # right one passes and qualifies.
    results.get_by_role("button", name="Try again").click()
    page.wait_for_url(lambda url: f"/annotate/{practice_assignment.pk}" not in url)
    page.wait_for_selector("html[data-workspace-ready='true']")
    expect(page.get_by_test_id("practice-results")).to_be_hidden()
    annotate(page, m, right=True)
    submit(page)
    results = page.get_by_test_id("practice-results")
    expect(results.locator("h2")).to_have_text("Attempt 2: Passed")
    expect(results).to_contain_text("Your annotation is the same as gold.")
    expect(results).to_contain_text("2 attempts so far")
    page.screenshot(path=str(artifacts / "onboarding-09-scored-passed.png"))

    # Qualified: the real topic opens.
    page.goto("/")
    real_row = page.locator(f"tr[data-assignment='{real.pk}']")
    expect(real_row.get_by_role("link", name="Open")).to_be_visible()
    expect(real_row.get_by_test_id("locked")).to_have_count(0)
    page.screenshot(path=str(artifacts / "onboarding-10-unlocked.png"), full_page=True)
    open_workspace(page, real.pk)
    expect(page.get_by_test_id("practice-bar")).to_have_count(0)
    page.screenshot(path=str(artifacts / "onboarding-11-real-topic-open.png"))
    assert page.errors == []


def test_an_admin_writes_guidelines_with_a_preview_and_qualifies_an_annotator_by_hand(
    new_page, artifacts
):
    project = Project.objects.create(name="Admin onboarding", hierarchy=True)
    (practice,) = practice_import(project=project, path=TUTORIAL, mode="scored")
    qualification_rule_set(
        project=project, practice_topic_ids=[practice.pk], thresholds={"conll_f1": 0.75}
    )
    annotator = UserFactory(username="newcomer")
    assign(practice.topic, annotator)
    real, _ = assign(make_topic(project, external_id="real-work"), annotator)
    page = new_page(AdminFactory(username="lead"))

    # Guidelines: Markdown on the left, the preview annotators will see on the right.
    page.goto(f"/manage/projects/{project.pk}/settings")
    page.locator("#project-guidelines").fill("# Rules\n\nMerge **acronyms**. <b>raw</b>")
    preview = page.get_by_test_id("guidelines-preview")
    expect(preview.locator("h1")).to_have_text("Rules")
    expect(preview.locator("strong")).to_have_text("acronyms")
    expect(preview).to_contain_text("<b>raw</b>")
    page.screenshot(path=str(artifacts / "onboarding-12-admin-guidelines-preview.png"))
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator("#project-guidelines")).to_have_value(
        "# Rules\n\nMerge **acronyms**. <b>raw</b>"
    )

    # The progress page: the annotator is not qualified; qualified by hand, with a reason.
    page.goto(f"/manage/projects/{project.pk}/progress")
    summary = page.get_by_test_id("qualification-summary")
    row = summary.locator("li[data-user=newcomer]")
    expect(row).to_have_attribute("data-qualified", "false")
    page.once("dialog", lambda dialog: dialog.accept("trained on CoRefi in person"))
    row.get_by_role("button", name="Qualify").click()
    expect(row).to_have_attribute("data-qualified", "true")
    expect(row).to_contain_text("qualified by hand")
    page.screenshot(path=str(artifacts / "onboarding-13-admin-progress-qualified.png"))

    # The Onboarding tab shows the log; the users page the state.
    page.goto(f"/manage/projects/{project.pk}/onboarding")
    table_row = page.get_by_test_id("qualification-table").locator("tr[data-user=newcomer]")
    expect(table_row).to_contain_text("qualified by lead: trained on CoRefi in person")
    page.screenshot(path=str(artifacts / "onboarding-14-admin-onboarding-tab.png"), full_page=True)
    page.goto("/manage/users")
    cell = page.locator(".user-qualification[data-project='Admin onboarding']")
    expect(cell).to_have_attribute("data-qualified", "true")
    page.screenshot(path=str(artifacts / "onboarding-15-admin-users.png"), full_page=True)

    # The annotator's real topic is open to them now.
    mine = new_page(annotator)
    mine.goto("/")
    real_row = mine.locator(f"tr[data-assignment='{real.pk}']")
    expect(real_row.get_by_role("link", name="Open")).to_be_visible()
    expect(real_row.get_by_test_id("locked")).to_have_count(0)
    assert page.errors == []
    assert mine.errors == []
