"""Bulk operations in the workspace, each one undoable step: a mention at every occurrence of
the selected words (E: a preview of the count first; cancel writes nothing) and accepting
every suggestion of one link type (Shift+X)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from annotation.models import Mention, Operation
from tests.e2e.workspace import annotation, api, open_workspace, press, wait_saved
from tests.factories import ProjectFactory, UserFactory, assign, make_topic
from tests.modelserve.services.test_decide_suggestions import mention, run_with_links


def bulk_workspace(new_page):
    project = ProjectFactory(
        anaphora=True, allow_add_mentions=True, allow_reject_mentions=True, hierarchy=False
    )
    topic = make_topic(project)
    second, first = mention(topic, 2, [[5, 6]]), mention(topic, 2, [[0, 1]])
    crf, bilstm = mention(topic, 1, [[7, 8]]), mention(topic, 1, [[4, 4]])
    run_with_links(
        topic,
        ("COREFERENCE", second, first),
        ("COREFERENCE", crf, bilstm),
        ("TRANSFORMED", bilstm, mention(topic, 1, [[0, 1]])),
        ("COREFERENCE", first, second),  # backwards: the rules refuse it
    )
    user = UserFactory()
    assignment, stored = assign(topic, user)
    return open_workspace(new_page(user), assignment.pk), topic, stored


def select_word(page, topic, document: int, token: int) -> None:
    """Drag over one word of document `document` (its position) with the mouse."""
    pk = topic.documents.get(position=document).pk
    word = page.locator(f"[data-doc-text='{pk}'] .t[data-t='{token}']")
    box = word.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] - 1, box["y"] + box["height"] / 2, steps=4)
    page.mouse.up()
    expect(page.get_by_role("toolbar", name="Selected text")).to_be_visible()


def test_every_occurrence_previews_then_adds_in_one_step_and_undo_removes_them(new_page, artifacts):
    page, topic, stored = bulk_workspace(new_page)
    dialog = page.get_by_role("dialog", name="Every occurrence of the selected words")

    # "the" (document 3, word 6): once free in document 2, twice inside a mention in document 3.
    select_word(page, topic, 2, 5)
    press(page, "e")
    expect(page.get_by_test_id("occurrence-count")).to_have_text(
        re.compile(r"Adds 1 mention in 1 document\.")
    )
    expect(page.get_by_test_id("occurrence-skipped")).to_contain_text(
        "Skipped: 2 occurrences sharing a word with another mention."
    )
    page.screenshot(path=str(artifacts / "bulk-every-occurrence-preview.png"))
    press(page, "Escape")
    expect(dialog).to_be_hidden()
    assert not Operation.objects.filter(annotation=stored).exists()

    # "was" (document 3, word 3): twice, both free.
    select_word(page, topic, 2, 2)
    press(page, "e")
    expect(page.get_by_test_id("occurrence-count")).to_have_text(
        re.compile(r"Adds 2 mentions in 1 document\.")
    )
    with page.expect_response(re.compile(r"/operations/$")):
        press(page, "Enter")
    wait_saved(page)
    added = Mention.objects.filter(topic=topic, added_in=stored).order_by("spans")
    assert [m.spans for m in added] == [[[2, 2]], [[7, 7]]]
    (logged,) = api(page, f"/api/annotations/{stored.pk}/operations/")
    assert logged["name"] == "add_mentions"
    page.screenshot(path=str(artifacts / "bulk-every-occurrence-added.png"))

    with page.expect_response(re.compile(r"/undo/$")):
        press(page, "Control+z")
    wait_saved(page)
    assert not Mention.objects.filter(topic=topic, added_in=stored).exists()
    assert page.errors == []


def test_accepting_every_suggestion_of_one_link_type_is_one_step(new_page, artifacts):
    page, _, stored = bulk_workspace(new_page)
    expect(page.get_by_role("button", name=re.compile("All of a type"))).to_be_enabled()

    press(page, "Shift+X")
    count = page.get_by_test_id("decide-count")
    expect(count).to_contain_text("Accepts 2 COREFERENCE links.")
    expect(count).to_contain_text("1 the rules refuse now is left out")
    expect(page.get_by_test_id("decide-refused")).to_contain_text('"The mixture"')
    page.screenshot(path=str(artifacts / "bulk-decide-type.png"))
    with page.expect_response(re.compile(r"/suggestions/decide/$")):
        press(page, "Enter")
    wait_saved(page)
    links = annotation(page, stored.pk)["links"]
    assert sorted(link[0] for link in links) == ["COREFERENCE", "COREFERENCE"]
    (logged,) = api(page, f"/api/annotations/{stored.pk}/operations/")
    assert logged["name"] == "accept_suggestions"

    with page.expect_response(re.compile(r"/undo/$")):
        press(page, "Control+z")
    wait_saved(page)
    assert annotation(page, stored.pk)["links"] == []

    # Both keys are in the help.
    press(page, "?")
    help_box = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(help_box).to_contain_text("every suggestion of one type")
    expect(help_box).to_contain_text("every occurrence of its words")
    assert page.errors == []
