"""The agreement page writes "undefined", with the reason, where two annotators left every
mention of a topic alone (the same singletons: nothing to score, not 0.0), never flags that
topic below a threshold, and says what the report leaves out: the undefined topics and a
practice topic, with counts. Screenshot: test-artifacts/agreement-undefined.png."""

import re

from playwright.sync_api import expect

from corefscore.metrics.undefined import NO_CLUSTER
from tests.factories import AdminFactory
from tests.reporting.test_agreement_left_out import SAME, undefined_project


def test_the_report_page_shows_undefined_with_the_reason_and_what_is_left_out(new_page, artifacts):
    project = undefined_project("Undefined e2e")
    page = new_page(AdminFactory())
    with page.expect_response(lambda r: r.url.endswith(f"/api/projects/{project.pk}/agreement/")):
        page.goto(f"/manage/projects/{project.pk}/agreement")

    row = page.locator(f".report-table tbody tr[data-topic='{SAME}']")
    cell = row.locator("td[data-column='conll_f1:avg']")
    expect(cell).to_have_text("undefined")
    expect(cell).to_have_attribute("title", NO_CLUSTER)
    expect(row.locator("td[data-column='hierarchy_f1:max']")).to_have_text("undefined")

    left_out = page.get_by_test_id("left-out")
    expect(left_out).to_contain_text("1 practice topic left out")
    expect(left_out).to_contain_text(
        f"CoNLL F1, MUC F1, B³ F1, CEAF-e F1, LEA F1 undefined on 1 topic, {SAME} ({NO_CLUSTER}):"
        " left out of their AVG, MAX-micro and MAX-macro"
    )
    expect(page.get_by_test_id("topic-count")).to_contain_text(
        "4 of 4 scored topics (1 practice topic left out)"
    )
    # four topics: no interval, and the card says why
    card = page.locator(".overall-card[data-metric='conll_f1']")
    expect(card.get_by_test_id("interval-note")).to_have_text(
        "interval not meaningful over 3 topics (fewer than 10): none shown"
    )

    # a threshold above every score flags the three defined topics, never the undefined one
    page.get_by_role("spinbutton", name="Threshold").fill("100")
    page.get_by_role("spinbutton", name="Threshold").press("Enter")
    expect(page.get_by_test_id("flagged-count")).to_have_text("3 topics below")
    expect(row).not_to_have_class(re.compile(r"\bis-below\b"))
    page.screenshot(path=str(artifacts / "agreement-undefined.png"), full_page=True)
    assert page.errors == []
