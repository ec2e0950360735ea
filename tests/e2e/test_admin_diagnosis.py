"""The diagnosis of disagreement (docs/diagnosis.md) in the browser: from a topic row of the
agreement report to the list of mentions whose cluster differs, a click into the review view
at that mention, and the same against gold."""

import re

from playwright.sync_api import expect

from reporting.selectors.diagnosis import topic_diagnosis
from tests.e2e.test_admin_agreement import agreement_project
from tests.factories import AdminFactory


def test_a_topic_row_opens_its_diagnosis_and_each_item_opens_the_review_at_the_mention(
    new_page, artifacts
):
    project = agreement_project("Diagnosis e2e")
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/agreement")
    rows = page.locator(".report-table tbody tr[data-topic]")
    expect(rows).to_have_count(6)
    topic = rows.first.get_attribute("data-topic")
    expected = topic_diagnosis(project, topic)
    assert expected["mentions"]  # three annotators of the demo disagree on the first topic

    rows.first.get_by_test_id("diagnose").click()
    expect(page).to_have_url(f"/manage/projects/{project.pk}/agreement/diagnosis?topic={topic}")
    table = page.get_by_role("table", name="Mentions whose cluster differs")
    expect(table.locator("thead th")).to_have_text(["Mention", "ann-a", "bob", "carol"])
    expect(table.locator("tbody tr")).to_have_count(len(expected["mentions"]))
    first = expected["mentions"][0]
    expect(table.locator("tbody tr").first.locator("th")).to_have_text(first["text"])
    expect(page.get_by_test_id("diagnosis-counts")).to_contain_text(
        f"{len(expected['mentions'])} mention"
    )
    page.screenshot(path=str(artifacts / "admin-diagnosis.png"), full_page=True)

    # the CSV link asks the same question as the page
    href = page.get_by_test_id("diagnosis-csv").get_attribute("href")
    assert href == f"/api/projects/{project.pk}/agreement/diagnosis/?topic={topic}&format=csv"

    bob = next(s for s in expected["sides"] if s["name"] == "bob")
    mention = first["ids"]["bob"]
    page.get_by_role("link", name=f"Open bob's annotation at {first['text']}").first.click()
    expect(page).to_have_url(f"/review/annotations/{bob['annotation']}?mention={mention}")
    expect(page.locator(".m.is-current").first).to_have_attribute("data-mention", str(mention))

    page.go_back()
    page.get_by_role("combobox", name="What to compare").select_option(label="gold with bob")
    against = topic_diagnosis(project, topic, gold=True, annotator="bob")
    assert against["mentions"]
    table = page.get_by_role("table", name="Mentions whose cluster differs")
    expect(table.locator("thead th")).to_have_text(["Mention", "gold", "bob"])
    expect(table.locator("tbody tr")).to_have_count(len(against["mentions"]))
    page.screenshot(path=str(artifacts / "admin-diagnosis-gold.png"), full_page=True)

    # against gold the same way: the gold side's cell opens the gold at that mention
    gold = against["sides"][0]
    item = next(m for m in against["mentions"] if m["ids"]["gold"] is not None)
    page.get_by_role("link", name=f"Open gold's annotation at {item['text']}").first.click()
    expect(page).to_have_url(
        f"/review/annotations/{gold['annotation']}?mention={item['ids']['gold']}"
    )
    expect(page.locator(".m.is-current").first).to_have_attribute(
        "data-mention", str(item["ids"]["gold"])
    )
    expect(page.get_by_test_id("review-banner")).to_have_text(
        re.compile(f"Reviewing the gold annotation of {topic}, read-only")
    )
