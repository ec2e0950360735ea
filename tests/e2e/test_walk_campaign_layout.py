"""What a new lab's campaign found covered or stale on screen, fixed: the practice bar no
longer hides the hierarchy tree's last row, the "Submitted" notice no longer covers the
topic title, a suggestion's reject button stays whole beside the guidelines, and the project
header counts the topics a practice import adds. Screenshots in
test-artifacts/campaign-layout-*.png."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from annotation.models import Project
from annotation.services.imports.topics import topics_import
from modelserve.models import Suggestion, SuggestionRun
from onboarding.services.practice import practice_mark
from tests.e2e.data import apply_ops, chemu_demo_topic, mention_ids, topic_from_data
from tests.e2e.test_questions import seeded_run
from tests.e2e.workspace import open_workspace, press
from tests.factories import AdminFactory, UserFactory, assign
from tests.onboarding.conftest import TUTORIAL
from tests.paths import DEMO

BOX = "(el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def box(locator) -> tuple[float, float, float, float]:
    return tuple(locator.evaluate(BOX))


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(inner, outer) -> bool:
    return (
        outer[0] <= inner[0]
        and inner[2] <= outer[2]
        and outer[1] <= inner[1]
        and inner[3] <= outer[3]
    )


def test_the_practice_bar_and_the_submitted_notice_cover_nothing(new_page, artifacts):
    project = Project.objects.create(name="Practice layout", hierarchy=True)
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")
    topic = project.topics.order_by("position").first()
    practice_mark(topic=topic, mode="scored")
    user = UserFactory(username="learner")
    assignment, stored = assign(topic, user)
    ids = mention_ids(topic)
    # Every mention a singleton: as many hierarchy rows as mentions, more than the tree shows.
    apply_ops(stored, user, [{"op": "assign", "mention": m, "cluster": None} for m in ids])
    page = new_page(user)
    page.set_viewport_size({"width": 1280, "height": 720})
    open_workspace(page, assignment.pk)
    bar = page.get_by_test_id("practice-bar")
    expect(bar).to_be_visible()

    tree = page.get_by_role("tree", name="Cluster hierarchy")
    # The tree is a virtual list, and it can scroll back after the test scrolled it to the end:
    # twice under load the last row read a moment later was an overscan row 300 px below the
    # tree, as when the list stands at its top again. So the page scrolls to the end each frame
    # and, once there with the same last row rendered two frames running (the list renders on
    # its scroll event), reads the boxes in that same step.
    boxes = page.wait_for_function(
        """([el, bar]) => {
            el.scrollTop = el.scrollHeight;
            const rows = el.querySelectorAll('[role=treeitem]');
            const index = rows[rows.length - 1].closest('.vl-item').dataset.vlIndex;
            const settled = el.dataset.lastSeen === index;
            el.dataset.lastSeen = index;
            if (!settled || el.scrollTop + el.clientHeight < el.scrollHeight - 1) return false;
            const edges = (r) => [r.left, r.top, r.right, r.bottom];
            return [rows[rows.length - 1], bar, el].map((e) => edges(e.getBoundingClientRect()));
        }""",
        arg=[tree.element_handle(), bar.element_handle()],
    ).json_value()
    last, bar_box, tree_box = (tuple(b) for b in boxes)
    page.screenshot(path=str(artifacts / "campaign-layout-1-tree-end.png"))
    assert not overlap(last, bar_box), (last, bar_box)
    assert inside(last, tree_box), (last, tree_box)

    # Submitted, with the current mention at the bottom of the text: the notices go to the
    # top edge, which is the panes' and not the header's.
    press(page, *["j"] * 16)  # far enough down that the text can scroll it to the bottom
    press(page, "Control+Enter", "Control+Enter")
    notice = page.locator(".notice-status", has_text="Submitted")
    expect(notice).to_be_visible()
    page.locator(".doc-scroller").evaluate(
        """(el) => {
          const m = document.querySelector('.m.is-current').getBoundingClientRect();
          el.scrollTop -= el.getBoundingClientRect().bottom - 30 - m.bottom;
        }"""
    )
    notices = page.get_by_test_id("notices")
    expect(notices).to_have_class(re.compile(r"\bnotices-top\b"))
    page.screenshot(path=str(artifacts / "campaign-layout-2-submitted.png"))
    placed = box(notices)
    assert not overlap(placed, box(page.locator(".ws-title"))), placed
    assert not overlap(placed, box(page.locator(".ws-header"))), placed
    assert not overlap(placed, box(page.get_by_test_id("submitted-banner"))), placed
    assert page.errors == []


def test_a_suggestions_reject_button_stays_whole_beside_the_guidelines(new_page, artifacts):
    project = Project.objects.create(
        name="Guided links", hierarchy=True, anaphora=True, guidelines="# Links\n\nLink them."
    )
    topic = topic_from_data(project, chemu_demo_topic(1))
    ids = mention_ids(topic)
    seeded_run(topic, ids)
    # The demo's own gold link, as the model suggests it: the longest type, a long antecedent.
    run = SuggestionRun.objects.get(topic=topic)
    Suggestion.objects.create(
        run=run,
        kind="link",
        position=1,
        score=0.8,
        payload={"type": "REACTION_ASSOCIATED", "anaphor": ids[6], "antecedent": ids[1]},
    )
    user = UserFactory()
    assignment, _ = assign(topic, user)
    page = new_page(user)
    page.set_viewport_size({"width": 1024, "height": 768})
    open_workspace(page, assignment.pk)
    # The guidelines open by themselves the first time, between the text and the side panels.
    expect(page.get_by_test_id("guidelines")).to_be_visible()
    panel = page.get_by_test_id("suggestions")

    # A cluster suggestion (the first mention's) and a link suggestion (the seventh's).
    reject = panel.get_by_role("button", name="Reject")
    expect(reject).to_be_visible()
    page.screenshot(path=str(artifacts / "campaign-layout-3-reject-cluster.png"))
    assert inside(box(reject), box(panel)), (box(reject), box(panel))
    page.locator(f".m[data-mention='{ids[6]}']").first.dblclick()
    link_reject = panel.get_by_role("button", name="Reject the suggested link")
    expect(link_reject).to_be_visible()
    page.screenshot(path=str(artifacts / "campaign-layout-4-reject-link.png"))
    assert inside(box(link_reject), box(panel)), (box(link_reject), box(panel))
    row = panel.locator(".suggest-link").first
    assert inside(box(link_reject), box(row)), (box(link_reject), box(row))
    assert panel.evaluate("(el) => el.scrollWidth <= el.clientWidth")
    assert page.errors == []


def test_the_project_header_counts_the_practice_topics_just_imported(new_page, artifacts):
    project = Project.objects.create(name="Counted", hierarchy=True)
    page: Page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/onboarding")
    chip = page.locator(".project-head .chip", has_text="topic")
    expect(chip).to_have_text("0 topics")
    page.locator(".import-practice input[type=file]").set_input_files(str(TUTORIAL))
    page.get_by_role("button", name="Import as practice").click()
    expect(page.get_by_role("status").filter(has_text="as practice")).to_be_visible()
    expect(chip).to_have_text("1 topic")
    page.screenshot(path=str(artifacts / "campaign-layout-5-count.png"))
    assert page.errors == []
