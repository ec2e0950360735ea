"""Adjudication makes sense at every step, on the demo data the walk used.

The "SciCo agreement demo" (the two demo annotators' submitted files), topic 9002 (graph
neural networks), seeded by consensus for a new adjudicator. Each case of the walk:
- the seed gave two clusters one label ("Graph attention networks" on a cluster holding only
  "attention-based aggregation", two "GraphSAGE"s, two "network embedding"s);
- the queue read "X under X";
- adopting annotator2, annotator2, annotator1 on the first three disagreements raised the
  counter (10 -> 18 there): one move realigned annotator2's four-mention cluster to a
  one-mention one;
- a confirmation said "as annotator1 has it" while the strip showed annotator1 elsewhere;
- labels no longer matched their members.
Screenshots: test-artifacts/walk-adjudication-*.png.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

import pytest
from playwright.sync_api import expect

from adjudication.services.adjudications import create_adjudication
from annotation.models import Annotation, Project
from annotation.selectors.state import annotation_state_load
from annotation.services.assignments import assignment_submit
from annotation.services.operations import annotation_operation_apply
from fixtures.demo.load import DEMO_ANNOTATORS, _agreement
from tests.e2e.workspace import current_mention, open_workspace, press, wait_saved
from tests.factories import AdminFactory, UserFactory, assign, make_topic

DEMO = "SciCo agreement demo"


@pytest.fixture
def judged():
    """The adjudicator's page data: (assignment, annotation) of a consensus seed of 9002."""
    _agreement(DEMO, [UserFactory(username=name) for name in DEMO_ANNOTATORS])
    topic = Project.objects.get(name=DEMO).topics.get(external_id="9002")
    assignment = create_adjudication(topic=topic, user=UserFactory(username="judge"))
    return assignment, Annotation.objects.get(assignment=assignment)


def labels_and_members(annotation: Annotation) -> list[tuple[str, list[str]]]:
    state = annotation_state_load(annotation)
    return [
        (c.label, [state.default_label(state.mentions[m]) for m in sorted(c.members)])
        for c in state.clusters.values()
    ]


def open_adjudication(new_page, assignment):
    page = new_page(assignment.user)
    page.goto(f"/annotate/{assignment.pk}")
    page.wait_for_selector("html[data-adjudication-ready='true']")
    if page.get_by_test_id(
        "guidelines"
    ).is_visible():  # opened on a first visit: it hides the strip
        press(page, "I")
    return page


def remaining(page) -> int:
    return int(page.locator("[data-adjudication-remaining]").inner_text())


def test_the_seed_names_each_cluster_after_its_members_and_the_queue_never_reads_x_under_x(
    new_page, judged, artifacts
):
    assignment, annotation = judged
    clusters = labels_and_members(annotation)
    assert [label for label, n in Counter(c[0] for c in clusters).items() if n > 1] == []
    assert [c for c in clusters if c[0] not in c[1]] == []

    page = open_adjudication(new_page, assignment)
    seen = []
    for _ in range(remaining(page)):
        press(page, "N")
        item = page.locator("[data-adjudication-item]")
        expect(item).to_be_visible()
        seen.append(item.inner_text())
    edges = [text for text in seen if text.lower().startswith("edge")]  # "EDGE" by its CSS
    assert edges, seen
    # "X under X" read as a cluster under itself: two clusters under one label.
    assert [t for t in edges if re.match(r"edge\s+(.+) under \1:", t, re.IGNORECASE)] == []
    page.screenshot(path=str(artifacts / "walk-adjudication-queue.png"))
    assert page.errors == []


def test_adopting_a_mix_of_both_annotators_never_raises_the_counter_and_says_what_is_so(
    new_page, judged, artifacts
):
    assignment, annotation = judged
    page = open_adjudication(new_page, assignment)
    counts = [remaining(page)]
    for k in ("2", "2", "1"):  # the walk's mix, on the first three disagreements
        press(page, "N")
        expect(page.locator("[data-adjudication-item]")).to_be_visible()
        press(page, k)
        wait_saved(page)
        who = DEMO_ANNOTATORS[int(k) - 1]
        notice = page.locator(".notice-status").last
        expect(notice).to_contain_text(who)
        column = page.locator(f".adj-col[data-annotator='{who}'] .adj-who")
        if "as " + who + " has it" in notice.inner_text():
            # The strip agrees with the confirmation: their decision is now the adjudicated one.
            expect(column).to_contain_text("as you have it")
        counts.append(remaining(page))
    page.screenshot(path=str(artifacts / "walk-adjudication-mix.png"))

    assert all(b <= a for a, b in pairwise(counts)), counts
    # Labels still name a member of their cluster after the moves.
    assert [c for c in labels_and_members(annotation) if c[0] not in c[1]] == []
    assert page.errors == []


def test_an_admin_reads_the_history_of_the_adjudication_from_its_review(
    new_page, judged, artifacts
):
    """An admin-visible timeline of an annotation, from the operation log."""
    assignment, annotation = judged
    cluster = annotation.clusters.order_by("id").first()
    annotation_operation_apply(
        annotation_id=annotation.pk,
        user=assignment.user,
        payload={"op": "rename", "cluster": cluster.pk, "label": "GNN layers"},
        expected_version=annotation.version,
    )

    page = new_page(AdminFactory())
    page.goto(f"/review/annotations/{annotation.pk}")
    page.get_by_test_id("history-link").click()

    history = page.get_by_test_id("annotation-history")
    expect(history.locator("h1")).to_contain_text("judge")
    rows = history.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("judge")  # newest first
    expect(rows.nth(0)).to_contain_text("label changed")
    expect(rows.nth(1)).to_contain_text("adjudication seed")
    expect(rows.nth(1)).to_contain_text("system")
    page.screenshot(path=str(artifacts / "walk-adjudication-history.png"))
    assert page.errors == []


def test_an_annotator_flags_a_mention_and_the_adjudicator_sees_the_flag(new_page, artifacts):
    """A flag with a short comment on one mention, for the adjudicator."""
    project = Project.objects.create(name="Flags", hierarchy=False, anaphora=True)
    topic = make_topic(project)
    annotators = [UserFactory(username=name) for name in DEMO_ANNOTATORS]
    assignments = [assign(topic, user)[0] for user in annotators]

    page = new_page(annotators[0])
    open_workspace(page, assignments[0].pk)
    press(page, "J")
    flagged = current_mention(page)
    press(page, "F")
    page.get_by_test_id("flag-comment").fill("a method, not a task?")
    press(page, "Enter")
    expect(page.locator(".notice-status").last).to_contain_text("Flagged")
    for assignment, user in zip(assignments, annotators, strict=True):
        assignment_submit(assignment_id=assignment.pk, user=user)

    judge = UserFactory(username="judge")
    adjudication = create_adjudication(topic=topic, user=judge, seed="empty")
    page = open_adjudication(new_page, adjudication)
    flags = page.locator("[data-adjudication-flags]")
    expect(flags).to_contain_text("1 flag")
    expect(flags).to_contain_text(DEMO_ANNOTATORS[0])
    flags.get_by_role("button").click()
    assert current_mention(page) == flagged
    column = page.locator(f".adj-col[data-annotator='{DEMO_ANNOTATORS[0]}']")
    expect(column.locator("[data-adjudication-flag]")).to_contain_text("a method, not a task?")
    expect(
        page.locator(f".adj-col[data-annotator='{DEMO_ANNOTATORS[1]}'] [data-adjudication-flag]")
    ).to_have_count(0)
    page.screenshot(path=str(artifacts / "walk-adjudication-flag.png"))
    assert page.errors == []
