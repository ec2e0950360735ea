"""A long document in the workspace is drawn block by block (frontend/src/domain/blocks.ts):
only the blocks on screen are in the page, and what reaches past them still works: the
workspace opens at a mention deep in the text, K walks back over a block's start, find in
text scrolls to a match near the end, and a link from a block's first mention to the mention
before it is drawn as an arc although its ends are in two blocks. Screenshot:
test-artifacts/long-document-arc.png."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from annotation.models import Annotation, Document, Project
from bench.long_document import create_long_document
from tests.e2e.data import mention_ids
from tests.e2e.workspace import annotation, open_workspace, press, wait_saved
from tests.factories import UserFactory, assign

TOKENS = 6000
IN_VIEW = """el => {
  const box = el.getBoundingClientRect();
  const list = el.closest('.doc-scroller').getBoundingClientRect();
  return box.top >= list.top && box.bottom <= list.bottom;
}"""
# A mention that opens a block and the mention before it, which ends the block before (the
# list's items are in the page in their order).
ACROSS_A_JOIN = """() => {
  const docs = [...document.querySelectorAll('.doc')];
  for (let i = 1; i < docs.length; i++) {
    if (!docs[i].classList.contains('is-continuation')) continue;
    const opening = docs[i].querySelector('.m');
    const before = [...docs[i - 1].querySelectorAll('.m')].pop();
    if (opening && before && opening.dataset.mention !== before.dataset.mention)
      return [Number(opening.dataset.mention), Number(before.dataset.mention)];
  }
  return null;
}"""
# Scroll a block's start to the middle of the list, so the block before it is drawn too.
SHOW_A_JOIN = """() => {
  const block = document.querySelector('.doc.is-continuation');
  const list = block.closest('.doc-scroller');
  list.scrollTop += block.getBoundingClientRect().top - list.getBoundingClientRect().top - 300;
}"""


def test_a_long_document_is_drawn_in_blocks_and_everything_reaches_past_them(new_page, artifacts):
    project = Project.objects.create(name="Novel", hierarchy=False, anaphora=True)
    topic = create_long_document(project, tokens=TOKENS, mentions=600, external_id="novel")
    document = Document.objects.get(topic=topic)
    document.tokens[5800] = "zeolite"  # one word to find, near the end
    document.save(update_fields=["tokens"])
    ids = mention_ids(topic)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    Annotation.objects.filter(pk=stored.pk).update(cursor=ids[550])  # token 5,500
    page = new_page(user)
    open_workspace(page, assignment.pk)

    current = page.locator(".m.is-current")
    expect(current).to_have_attribute("data-mention", str(ids[550]))
    assert current.first.evaluate(IN_VIEW)
    drawn = page.locator("[data-t]").count()
    assert 0 < drawn < TOKENS / 2, drawn  # the blocks on screen, not the whole text

    # K x 250 walks back 2,500 tokens, over at least one block's start (blocks hold 1,000 to
    # 2,000 tokens).
    press(page, *["k"] * 250)
    expect(current).to_have_attribute("data-mention", str(ids[300]))
    assert current.first.evaluate(IN_VIEW)

    press(page, "Control+f")
    page.get_by_label("Find in the documents' text").fill("zeolite")
    match = page.locator("[data-t='5800']")
    expect(match).to_have_class(re.compile(r"\bis-found-current\b"))
    assert match.evaluate(IN_VIEW)
    press(page, "Escape")

    # A link whose ends are in two blocks: the anaphor opens its block, the antecedent ends
    # the block before it.
    page.evaluate(SHOW_A_JOIN)
    anaphor, antecedent = page.wait_for_function(ACROSS_A_JOIN).json_value()
    page.locator(f".m[data-mention='{anaphor}']").dblclick()
    press(page, "a", "k")
    expect(current).to_have_attribute("data-mention", str(antecedent))
    press(page, "1")
    wait_saved(page)
    assert annotation(page, stored.pk)["links"] == [["COREFERENCE", anaphor, antecedent]]
    arc = page.locator(f"svg.arcs [data-link='COREFERENCE|{anaphor}|{antecedent}']")
    expect(arc).to_have_count(1)
    page.locator(f".m[data-mention='{anaphor}']").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "long-document-arc.png"))
    assert page.errors == []


ROW_IN_LIST = """el => {
  const box = el.getBoundingClientRect();
  const list = el.closest('.link-list').getBoundingClientRect();
  return box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
}"""


def test_a_long_link_list_draws_the_rows_on_screen_and_brings_the_current_link_in(new_page):
    """400 links in one document: the link list holds only the rows it shows (a novel's 2,000
    rows made every key slow), and `]` on a mention near the end brings its row into view."""
    from annotation.selectors.workspace import annotation_payload
    from bench.long_document import seed_annotation

    project = Project.objects.create(name="Novel links", hierarchy=False, anaphora=True)
    topic = create_long_document(project, tokens=TOKENS, mentions=600, external_id="linked")
    user = UserFactory()
    assignment, stored = assign(topic, user)
    seed_annotation(stored, mention_ids(topic), links=400)
    links = annotation_payload(Annotation.objects.get(pk=stored.pk))["links"]
    assert len(links) == 400
    type_, anaphor, antecedent = max(links, key=lambda link: link[1])  # the list's last rows
    Annotation.objects.filter(pk=stored.pk).update(cursor=anaphor)
    page = new_page(user)
    open_workspace(page, assignment.pk)

    expect(page.get_by_role("heading", name="Links in this document (400)")).to_be_visible()
    drawn = page.locator(".link-row").count()
    assert 0 < drawn < 100, drawn
    press(page, "]")
    row = page.locator(".link-row.is-current-link")
    expect(row).to_have_attribute("data-link", f"{type_}|{anaphor}|{antecedent}")
    page.wait_for_function(ROW_IN_LIST, arg=row.element_handle())
    assert row.get_attribute("aria-setsize") == "400"
    assert page.errors == []
