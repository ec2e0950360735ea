"""Anaphora links (ChEMU-Ref): linking by keyboard, arcs, refusals with the server's reason,
removing a link, discontinuous mentions, adding a mention by selecting text, both schemes."""

import re

from playwright.sync_api import expect

from annotation.models import Project
from tests.e2e.data import apply_ops, chemu_demo_topic, mention_ids, topic_from_data
from tests.e2e.workspace import annotation, open_workspace, press, wait_saved
from tests.factories import UserFactory, assign


def chemu_workspace(new_page, *, hierarchy=False, gold_links=0, **flags):
    data = chemu_demo_topic(2)
    project = Project.objects.create(name="ChEMU", hierarchy=hierarchy, anaphora=True, **flags)
    topic = topic_from_data(project, data)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    ids = mention_ids(topic)
    apply_ops(
        stored,
        user,
        [
            {
                "op": "add_link",
                "type": link.type,
                "anaphor": ids[link.anaphor],
                "antecedent": ids[link.antecedent],
            }
            for link in data.links[:gold_links]
        ],
    )
    page = open_workspace(new_page(user), assignment.pk)
    return page, stored, ids


def links(page, annotation_id):
    return {tuple(link) for link in annotation(page, annotation_id)["links"]}


def mention(page, id):
    return page.locator(f".m[data-mention='{id}']").first


def test_a_link_is_made_by_keyboard_drawn_as_an_arc_and_removed(new_page):
    page, stored, ids = chemu_workspace(new_page)
    # demo_0001: "the mixture" (#6) is REACTION_ASSOCIATED with "Ethyl 4-(4-fluorophenyl)..." (#1)
    mention(page, ids[6]).dblclick()
    press(page, "a")
    expect(mention(page, ids[6])).to_have_class(re.compile(r"\bis-anaphor\b"))
    press(page, *["k"] * 5)
    expect(page.locator(".m.is-current").first).to_have_attribute("data-mention", str(ids[1]))
    press(page, "3")
    wait_saved(page)

    assert links(page, stored.pk) == {("REACTION_ASSOCIATED", ids[6], ids[1])}
    expect(
        page.locator(f"svg.arcs [data-link='REACTION_ASSOCIATED|{ids[6]}|{ids[1]}']")
    ).to_have_count(1)
    row = page.locator(".link-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("REACTION_ASSOCIATED")

    row.get_by_role("button", name=re.compile("^Remove")).click()
    wait_saved(page)
    assert links(page, stored.pk) == set()
    expect(page.locator("svg.arcs .arc")).to_have_count(0)


def test_links_breaking_chemu_rules_are_refused_with_the_reason(new_page):
    page, stored, ids = chemu_workspace(new_page)
    # An antecedent after its anaphor.
    mention(page, ids[1]).dblclick()
    press(page, "a")
    mention(page, ids[6]).click()
    press(page, "1")
    expect(page.get_by_role("alert")).to_contain_text(
        "The antecedent must come earlier in the text"
    )

    # A second TRANSFORMED antecedent for one anaphor.
    press(page, "Escape")
    mention(page, ids[7]).dblclick()
    press(page, "a")
    mention(page, ids[6]).click()
    press(page, "2")
    wait_saved(page)
    mention(page, ids[2]).click()
    press(page, "2")
    expect(page.get_by_role("alert")).to_contain_text("TRANSFORMED is one-to-one")
    wait_saved(page)
    assert links(page, stored.pk) == {("TRANSFORMED", ids[7], ids[6])}


def test_a_discontinuous_mention_is_shown_as_one(new_page):
    page, _, ids = chemu_workspace(new_page)
    parts = page.locator(
        f".m[data-mention='{ids[3]}']"
    )  # "2 M sodium hydroxide … aqueous solution (…)"
    expect(parts).to_have_count(2)
    parts.nth(1).hover()
    expect(parts.nth(0)).to_have_class(re.compile(r"\bis-hover\b"))
    expect(parts.nth(1)).to_have_class(re.compile(r"\bis-hover\b"))


def test_a_mention_is_added_by_selecting_text(new_page):
    page, stored, _ = chemu_workspace(new_page, allow_add_mentions=True)
    text = page.locator("[data-doc-text]").first
    start = text.locator(".t[data-t='0']")  # "Example 12 :"
    end = text.locator(".t[data-t='1']")
    start_box, end_box = start.bounding_box(), end.bounding_box()
    page.mouse.move(start_box["x"] + 1, start_box["y"] + start_box["height"] / 2)
    page.mouse.down()
    page.mouse.move(
        end_box["x"] + end_box["width"] - 1, end_box["y"] + end_box["height"] / 2, steps=5
    )
    page.mouse.up()
    expect(page.get_by_role("toolbar", name="Selected text")).to_be_visible()
    press(page, "Enter")
    wait_saved(page)
    added = [m for m in annotation(page, stored.pk)["mentions"] if m["added"]]
    assert [(m["spans"]) for m in added] == [[[0, 1]]]
    expect(page.locator(".m.is-current").first).to_have_attribute(
        "data-mention", str(added[0]["id"])
    )


def test_a_mention_is_added_by_keyboard_alone(new_page, artifacts):
    page, stored, ids = chemu_workspace(new_page, allow_add_mentions=True)
    expect(page.locator(".m.is-current").first).to_have_attribute("data-mention", str(ids[0]))
    press(page, "v")  # the first word of the current mention, #0 at tokens 5-6
    expect(page.get_by_role("toolbar", name="Selected text")).to_be_visible()
    press(page, *["ArrowLeft"] * 6, *["Shift+ArrowRight"] * 3, "Shift+ArrowLeft")  # tokens 0-2
    assert (
        page.evaluate("window.getSelection().toString()") == "Example 12:"
    )  # shown as the text reads
    page.screenshot(path=str(artifacts / "selection-by-keyboard.png"))
    press(page, "Enter")
    wait_saved(page)
    added = [m for m in annotation(page, stored.pk)["mentions"] if m["added"]]
    assert [m["spans"] for m in added] == [[[0, 2]]]


def test_a_mention_span_is_fixed_by_keyboard_alone(new_page):
    page, stored, ids = chemu_workspace(new_page, allow_fix_spans=True)
    press(page, *["j"] * 6)  # to "the mixture" (#6), tokens 53-54
    expect(page.locator(".m.is-current").first).to_have_attribute("data-mention", str(ids[6]))
    press(page, "v", "ArrowLeft", *["Shift+ArrowRight"] * 5)
    press(page, "f")
    wait_saved(page)
    fixed = next(m for m in annotation(page, stored.pk)["mentions"] if m["id"] == ids[6])
    assert fixed["spans"] == [[52, 57]]
    expect(page.get_by_role("toolbar", name="Selected text")).to_have_count(0)


def test_a_project_with_both_schemes_clusters_and_links(new_page, artifacts):
    page, stored, ids = chemu_workspace(new_page, hierarchy=True, gold_links=2)
    press(page, "Control+Space", "Space")  # mentions #0 and #1 in one cluster
    mention(page, ids[13]).dblclick()
    press(page, "a")
    mention(page, ids[12]).click()
    press(page, "1")
    wait_saved(page)
    stored_json = annotation(page, stored.pk)
    assert {frozenset(c["members"]) for c in stored_json["clusters"]} == {frozenset(ids[:2])}
    assert ("COREFERENCE", ids[13], ids[12]) in {tuple(link) for link in stored_json["links"]}
    expect(page.get_by_role("listbox", name="Cluster bank")).to_be_visible()
    expect(page.get_by_role("tree", name="Cluster hierarchy")).to_be_visible()
    page.screenshot(path=str(artifacts / "workspace-both-schemes.png"))


def test_a_mention_is_fixed_by_selecting_text_and_rejected_with_delete(new_page):
    page, stored, ids = chemu_workspace(new_page, allow_fix_spans=True, allow_reject_mentions=True)
    mention(page, ids[6]).dblclick()  # "the mixture", tokens 53-54
    text = page.locator("[data-doc-text]").first
    start, end = (
        text.locator(".t[data-t='53']"),
        text.locator(".t[data-t='57']"),
    )  # "the mixture was stirred at"
    a, b = start.bounding_box(), end.bounding_box()
    page.mouse.move(a["x"] + 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] - 2, b["y"] + b["height"] / 2, steps=5)
    page.mouse.up()
    press(page, "f")
    wait_saved(page)
    fixed = next(m for m in annotation(page, stored.pk)["mentions"] if m["id"] == ids[6])
    assert fixed["spans"] == [[53, 57]]

    mention(page, ids[11]).dblclick()  # "water"
    press(page, "Delete")
    wait_saved(page)
    expect(mention(page, ids[11])).to_have_class(re.compile(r"\bis-rejected\b"))
    rejected = next(m for m in annotation(page, stored.pk)["mentions"] if m["id"] == ids[11])
    assert rejected["rejected"] is True
