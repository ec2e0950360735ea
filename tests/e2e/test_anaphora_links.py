"""Anaphora links edited and read at density: retype in place by key and by click (one undo),
a chosen set retyped at once, delete by key, [ ] through the current mention's links, clicking
an arc, arc labels that cover no word and no other label on the densest training snippet, and
following a long-distance link to its far end."""

from __future__ import annotations

import functools
import re

from playwright.sync_api import expect

from annotation.models import Project
from corefscore.formats.chemu import read_chemu_jsonlines
from tests.e2e.data import apply_ops, mention_ids, topic_from_data
from tests.e2e.test_anaphora import chemu_workspace, links, mention
from tests.e2e.workspace import link_row, open_workspace, press, wait_saved
from tests.factories import UserFactory, assign
from tests.paths import CHEMU_TRAIN

# demo_0001 (mention indices): "the mixture" (#6) is REACTION_ASSOCIATED with #1, #2 and #3 and
# the TRANSFORMED antecedent of "The reaction mixture" (#7); "The resulting precipitate" (#10)
# is the WORK_UP anaphor of #8 and #9 and the antecedent of #12's WORK_UP link.


def current_link(page):
    return page.locator(".link-row.is-current-link")


def test_links_are_retyped_removed_and_walked_by_key_and_by_click(new_page, artifacts):
    page, stored, ids = chemu_workspace(new_page, gold_links=12)
    start = links(page, stored.pk)
    react = lambda a, b: ("REACTION_ASSOCIATED", ids[a], ids[b])

    # ] walks the current mention's links, in the order of their other ends.
    mention(page, ids[6]).dblclick()
    press(page, "]")
    expect(current_link(page)).to_have_attribute("data-link", "|".join(map(str, react(6, 1))))
    press(page, "]")
    expect(current_link(page)).to_have_attribute("data-link", "|".join(map(str, react(6, 2))))
    expect(page.locator("svg.arcs .arc.is-current-link")).to_have_count(1)
    # The list marks the current mention's links and tells equal texts apart by place.
    expect(page.locator(".link-row.is-current-mention")).to_have_count(4)
    expect(current_link(page)).to_contain_text(re.compile(r"s\d+ w\d+.*→.*s\d+ w\d+"))

    # A digit retypes the current link in place: one link, one operation, one undo.
    press(page, "4")
    wait_saved(page)
    assert links(page, stored.pk) == (start - {react(6, 2)}) | {("WORK_UP", ids[6], ids[2])}
    press(page, "Control+z")
    wait_saved(page)
    assert links(page, stored.pk) == start

    # By click: the link's row, then a type button.
    page.locator(f".link-row[data-link='TRANSFORMED|{ids[7]}|{ids[6]}'] .link-text").click()
    page.get_by_role("group", name=re.compile("Link type")).get_by_role(
        "button", name="1 COREFERENCE"
    ).click()
    wait_saved(page)
    now = links(page, stored.pk)
    assert ("COREFERENCE", ids[7], ids[6]) in now
    assert ("TRANSFORMED", ids[7], ids[6]) not in now
    assert len(now) == 12

    # With an anaphor, another type on a pair linked already changes it (no second link).
    mention(page, ids[8]).dblclick()
    press(page, "a")
    mention(page, ids[7]).click()
    press(page, "2")
    wait_saved(page)
    now = links(page, stored.pk)
    assert ("TRANSFORMED", ids[8], ids[7]) in now
    assert ("WORK_UP", ids[8], ids[7]) not in now
    assert len(now) == 12
    press(page, "Escape")

    # Shift+Delete removes the current link; Delete would reject the mention.
    mention(page, ids[10]).dblclick()
    press(page, "]")
    expect(current_link(page)).to_have_attribute("data-link", f"WORK_UP|{ids[10]}|{ids[8]}")
    press(page, "Shift+Delete")
    wait_saved(page)
    assert ("WORK_UP", ids[10], ids[8]) not in links(page, stored.pk)
    expect(mention(page, ids[10])).not_to_have_class(re.compile(r"\bis-rejected\b"))

    # Clicking an arc selects its link; Shift+click ticks another; a digit retypes both.
    click_arc(page, f"WORK_UP|{ids[12]}|{ids[10]}")
    expect(current_link(page)).to_have_attribute("data-link", f"WORK_UP|{ids[12]}|{ids[10]}")
    click_arc(page, f"WORK_UP|{ids[10]}|{ids[9]}", modifiers=["Shift"])
    page.locator(f".link-row[data-link='WORK_UP|{ids[12]}|{ids[10]}'] input.choose-link").check()
    before = links(page, stored.pk)
    press(page, "5")
    wait_saved(page)
    after = links(page, stored.pk)
    assert after - before == {
        ("CONTAINED", ids[12], ids[10]),
        ("CONTAINED", ids[10], ids[9]),
    }
    assert before - after == {("WORK_UP", ids[12], ids[10]), ("WORK_UP", ids[10], ids[9])}
    page.screenshot(path=str(artifacts / "links-retyped.png"))
    press(page, "Control+z")
    wait_saved(page)
    assert links(page, stored.pk) == before

    # Every one of these keys is in the help.
    press(page, "?")
    help = page.get_by_role("dialog", name="Keyboard shortcuts")
    for described in (
        "Next link of the current mention",
        "Previous link of the current mention",
        "Remove the current link (Delete alone rejects the mention)",
        "Go to the other end of the current link",
        "with a second type",
        "change the current link, or the links ticked in the list",
    ):
        expect(help).to_contain_text(described)


def click_arc(page, key, modifiers=()):
    """Click the arc of `key` on its stroke (the middle of the path, not of its box)."""
    point = page.locator(f"svg.arcs [data-link='{key}'] .arc-hit").evaluate(
        """path => {
            const p = path.getPointAtLength(path.getTotalLength() / 2);
            const m = path.getScreenCTM();
            return { x: p.x * m.a + m.e, y: p.y * m.d + m.f };
        }"""
    )
    for key_name in modifiers:
        page.keyboard.down(key_name)
    page.mouse.click(point["x"], point["y"])
    for key_name in modifiers:
        page.keyboard.up(key_name)


@functools.cache
def densest_snippet():
    """The training snippet with the most links (0344: 124 links over 1,099 tokens)."""
    topics = read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics
    return max(topics, key=lambda topic: len(topic.links))


OVERLAPS = """() => {
    const boxes = (sel) =>
        [...document.querySelectorAll(sel)].flatMap((el) => [...el.getClientRects()]);
    const labels = boxes("svg.arcs text.arc-label");
    const words = boxes("[data-doc-text] .t");
    const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    let onWords = 0, onLabels = 0;
    labels.forEach((a, i) => {
        if (words.some((w) => hit(a, w))) onWords++;
        for (const b of labels.slice(i + 1)) if (hit(a, b)) onLabels++;
    });
    return { labels: labels.length, words: words.length, onWords, onLabels };
}"""


def test_the_densest_snippet_with_every_arc_keeps_labels_clear_and_far_links_followable(
    new_page, artifacts
):
    data = densest_snippet()
    project = Project.objects.create(name="ChEMU dense", hierarchy=False, anaphora=True)
    topic = topic_from_data(project, data)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    ids = mention_ids(topic)
    ops = [
        {
            "op": "add_link",
            "type": l.type,
            "anaphor": ids[l.anaphor],
            "antecedent": ids[l.antecedent],
        }
        for l in data.links
    ]
    apply_ops(stored, user, ops)
    page = open_workspace(new_page(user), assignment.pk)

    press(page, "l")
    expect(page.locator("svg.arcs .arc[data-link]")).to_have_count(len(data.links))
    page.wait_for_function("() => document.querySelectorAll('svg.arcs text.arc-label').length > 0")
    found = page.evaluate(OVERLAPS)
    page.screenshot(path=str(artifacts / "links-densest-all-arcs.png"), full_page=False)
    assert found["words"] >= 1000
    assert found["onWords"] == 0, found
    assert found["onLabels"] == 0, found
    # Most arcs keep their label; the others show it on hover or as the current link.
    assert found["labels"] >= len(data.links) // 3, found
    print("densest snippet labels:", found)

    # The longest link: its ends ten lines apart, more than a short window shows. Choosing it
    # marks the far end off screen.
    page.set_viewport_size({"width": 1440, "height": 520})
    far = max(
        data.links,
        key=lambda l: (
            data.mentions[l.anaphor].spans[0][0] - data.mentions[l.antecedent].spans[0][0]
        ),
    )
    key = f"{far.type}|{ids[far.anaphor]}|{ids[far.antecedent]}"
    press(page, "l")
    link_row(page, key).locator(".link-text").click()
    expect(page.locator(".m.is-current").first).to_have_attribute(
        "data-mention", str(ids[far.anaphor])
    )
    expect(page.locator(f"svg.arcs [data-link='{key}']")).to_have_count(1)
    marker = page.locator(".far-end")
    expect(marker).to_contain_text("↑ antecedent")
    page.screenshot(path=str(artifacts / "links-far-end-marked.png"))

    # O goes there, however far, and brings it into view; the marker now points back down.
    press(page, "o")
    expect(page.locator(".m.is-current").first).to_have_attribute(
        "data-mention", str(ids[far.antecedent])
    )
    expect(page.locator(f".m[data-mention='{ids[far.antecedent]}']").first).to_be_in_viewport()
    expect(marker).to_contain_text("↓ anaphor")
    press(page, "o")
    expect(page.locator(f".m[data-mention='{ids[far.anaphor]}']").first).to_be_in_viewport()
