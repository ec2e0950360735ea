"""The gate in the browser, played by a copier: submit every mention alone, read what the
failed attempt shows, and try to rebuild the answer from it. The feedback names only the
copier's own clusters (no gold membership on the page or in what the page received), the
next attempt is on the project's other practice topic, and past the project's cap the
results say to ask the admin (and the server refuses). Suggestions made before the topic
became practice are not offered. An admin sees every attempt. Screenshots in
test-artifacts/walk-gate-*.png."""

from __future__ import annotations

import json

from playwright.sync_api import Locator, expect

from annotation.models import Project
from onboarding.services.practice import practice_import
from onboarding.services.qualification import qualification_rule_set
from tests.e2e.test_onboarding import submit
from tests.e2e.workspace import open_workspace, press, wait_saved
from tests.factories import AdminFactory, UserFactory, assign, mention_ids
from tests.modelserve.api.test_suggestions_payload import finished_run
from tests.onboarding.conftest import TUTORIAL
from tests.paths import COREFI_DATA

SECOND = COREFI_DATA / "guided_sentiment.json"


def all_alone(page, count: int) -> None:
    """Ctrl+Space on every mention: each in a new cluster of its own."""
    for _ in range(count):
        press(page, "Control+Space")
    wait_saved(page)


def submit_and_read(page) -> tuple[dict, Locator]:
    """Submit; the results panel, and the practice payload the page read to draw it."""
    with page.expect_response(
        lambda r: "/api/onboarding/assignments/" in r.url and r.request.method == "GET"
    ) as read:
        submit(page)
    results = page.get_by_test_id("practice-results")
    expect(results).to_have_attribute("data-passed", "false")
    return read.value.json(), results


def rebuild_from(results: Locator) -> list[list[str]]:
    """What a copier can take from the results: every entry that names mentions together
    (the old page's "gold: “CNN”, “convolutional neural network”")."""
    groups = []
    for entry in results.locator("li").all_inner_texts():
        named = [part.split("”")[0] for part in entry.split("“")[1:]]
        if len(named) > 1:
            groups.append(named)
    return groups


def test_a_copier_reads_the_feedback_and_cannot_rebuild_the_answer(new_page, artifacts):
    project = Project.objects.create(name="Copy-proof gate", hierarchy=True)
    (tutorial,) = practice_import(project=project, path=TUTORIAL, mode="scored")
    (second,) = practice_import(project=project, path=SECOND, mode="scored")
    qualification_rule_set(
        project=project,
        practice_topic_ids=[tutorial.pk, second.pk],
        thresholds={"conll_f1": 0.75},
        attempts_allowed=2,
    )
    ids = mention_ids(tutorial.topic)
    finished_run(tutorial.topic, [[ids[0], ids[1]], [ids[2], ids[3]]])  # the model's answer
    user = UserFactory(username="copier")
    first_assignment, _ = assign(tutorial.topic, user)
    second_assignment, _ = assign(second.topic, user)
    page = new_page(user)

    open_workspace(page, first_assignment.pk)
    # The run made before the topic became practice is not offered.
    panel = page.get_by_test_id("suggestions")
    expect(panel.get_by_test_id("suggestions-off")).to_contain_text("off on practice topics")
    expect(panel.locator(".suggest-current")).to_have_count(0)
    expect(panel.get_by_test_id("suggestion-counts")).to_have_count(0)

    # Every mention alone, submitted: not passed. The results say what was wrong.
    all_alone(page, tutorial.topic.mentions.count())
    payload, results = submit_and_read(page)
    expect(results.get_by_test_id("diff-summary")).to_contain_text(
        "2 mentions clustered differently from gold"
    )
    clusters = results.get_by_test_id("diff-clusters")
    expect(clusters.locator("li")).to_have_count(2)
    expect(clusters).to_contain_text("“CNN”")
    expect(clusters).to_contain_text("gold puts some of its mentions with mentions outside it")
    page.screenshot(path=str(artifacts / "walk-gate-1-failed-feedback.png"))

    # The copier's rebuild: nothing on the page names mentions together, and neither did
    # what the page received.
    assert rebuild_from(results) == []
    expect(results).not_to_contain_text("gold:")
    expect(results).not_to_contain_text("convolutional neural network”, “")
    received = json.dumps(payload["attempts"])
    assert '"gold"' not in received
    assert '"yours"' not in received
    assert all(c["size"] == 1 for c in payload["attempts"][0]["diff"]["clusters"])
    expect(results.get_by_test_id("attempts-count")).to_contain_text(
        "1 of 2 attempts allowed in Copy-proof gate used"
    )

    # Try again: the next attempt is on the project's other practice topic, not this one.
    results.get_by_role("button", name="Try again").click()
    page.wait_for_url(f"**/annotate/{second_assignment.pk}")
    page.wait_for_selector("html[data-workspace-ready='true']")
    expect(page.locator(".ws-title strong")).to_have_text(second.topic.external_id)
    page.screenshot(path=str(artifacts / "walk-gate-2-next-topic-drawn.png"))

    # The second failure uses the project's last attempt: ask your admin, no Try again.
    all_alone(page, second.topic.mentions.count())
    _payload, results = submit_and_read(page)
    assert rebuild_from(results) == []
    expect(results.get_by_test_id("attempts-used-up")).to_contain_text(
        "used all 2 attempts allowed in Copy-proof gate: ask your admin"
    )
    expect(results.get_by_role("button", name="Try again")).to_have_count(0)
    expect(page.get_by_test_id("bar-used-up")).to_contain_text("ask your admin")
    results.get_by_test_id("attempts-used-up").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "walk-gate-3-attempts-used-up.png"))
    # The server refuses too, in the same words (a request as the page makes it).
    refused = page.evaluate(
        """async (url) => {
            const token = document.cookie.match(/csrftoken=([^;]+)/)?.[1] ?? "";
            const r = await fetch(url, { method: "POST", headers: { "X-CSRFToken": token } });
            return { status: r.status, body: await r.json() };
        }""",
        f"/api/onboarding/assignments/{second_assignment.pk}/reset/",
    )
    assert refused["status"] == 403
    assert "ask your admin" in refused["body"]["message"]

    # The admin sees both attempts: who, when, which topic, the score, failed.
    admin = new_page(AdminFactory(username="gatekeeper"))
    admin.goto(f"/manage/projects/{project.pk}/onboarding")
    table = admin.get_by_test_id("attempts-table")
    expect(table.locator("tr[data-user=copier]")).to_have_count(2)
    expect(table.locator(f"tr[data-topic='{tutorial.topic.external_id}']")).to_contain_text(
        "failed"
    )
    expect(table.locator(f"tr[data-topic='{second.topic.external_id}']")).to_contain_text("#1")
    expect(admin.get_by_label("Scored attempts allowed per annotator")).to_have_value("2")
    admin.screenshot(path=str(artifacts / "walk-gate-4-admin-every-attempt.png"), full_page=True)
    assert page.errors == []
    assert admin.errors == []
