"""A note and an attribute on a link, set by key in the workspace, seen again after a reload,
and carried by the brat export (# AnnotatorNotes and A lines). Screenshots:
test-artifacts/link-notes-*.png."""

import io
import zipfile

from playwright.sync_api import expect

from tests.e2e.test_anaphora import chemu_workspace, mention
from tests.e2e.workspace import annotation, press, wait_saved
from tests.factories import AdminFactory

ATTRIBUTES = [{"name": "certainty", "values": ["high", "low"]}]


def test_a_note_and_an_attribute_are_set_by_key_kept_and_exported(new_page, artifacts):
    page, stored, _ = chemu_workspace(new_page, gold_links=1, attributes=ATTRIBUTES)
    type_, anaphor, antecedent = annotation(page, stored.pk)["links"][0]
    mention(page, anaphor).click()
    expect(page.locator(".m.is-current").first).to_have_attribute("data-mention", str(anaphor))

    press(page, "Shift+N")
    note = page.get_by_role("textbox", name="Link note")
    expect(note).to_be_focused()
    note.fill("the organic layer, not the aqueous one")
    press(page, "Control+Enter")
    wait_saved(page)
    press(page, "Control+Alt+Digit1")  # certainty: its first value
    expect(page.locator(".notice-statuses")).to_contain_text("certainty of the")
    wait_saved(page)

    details = annotation(page, stored.pk)["link_details"]
    assert details == [
        {
            "type": type_,
            "anaphor": anaphor,
            "antecedent": antecedent,
            "note": "the organic layer, not the aqueous one",
            "attributes": {"certainty": "high"},
        }
    ]

    page.reload()
    page.wait_for_selector("html[data-workspace-ready='true']")
    mention(page, anaphor).click()
    row = page.locator(f".link-row[data-link='{type_}|{anaphor}|{antecedent}']")
    expect(row.get_by_test_id("link-note")).to_have_text("the organic layer, not the aqueous one")
    expect(row.locator("select[data-attribute='certainty']")).to_have_value("high")
    row.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "link-notes-workspace.png"))
    press(page, "?")
    expect(page.get_by_role("dialog")).to_contain_text("Write a note on the current mention's link")
    page.screenshot(path=str(artifacts / "link-notes-help.png"))

    admin = new_page(AdminFactory())
    username = stored.assignment.user.username
    project = stored.topic.project_id
    response = admin.request.get(f"/api/projects/{project}/export/?format=brat&source={username}")
    assert response.ok, response.text()
    with zipfile.ZipFile(io.BytesIO(response.body())) as archive:
        ann = "".join(archive.read(n).decode() for n in archive.namelist() if n.endswith(".ann"))
    assert "\tAnnotatorNotes R" in ann
    assert "the organic layer, not the aqueous one" in ann
    assert "\tcertainty R" in ann
    assert " high\n" in ann
