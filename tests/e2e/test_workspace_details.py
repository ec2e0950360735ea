"""Workspace details: the merged cluster stays selected, undo and redo say what they changed,
S splits, the help shows only the keys that apply, a second link type for a pair warns with
the existing link, rejected mentions are no link ends, and refusals name mentions by text."""

import re

from playwright.sync_api import expect

from tests.e2e.test_anaphora import chemu_workspace, links, mention
from tests.e2e.test_hierarchy import row, select_by_search, workspace_with_clusters
from tests.e2e.workspace import annotation, press, wait_saved


def statuses(page):
    return page.locator(".notice-statuses")


def test_after_a_merge_the_merged_cluster_is_selected_and_undo_says_what_it_undid(new_page):
    page, _, _, _ = workspace_with_clusters(new_page)
    select_by_search(page, "NER")
    press(page, "m")
    page.keyboard.type("chunking")
    press(page, "Enter")
    wait_saved(page)

    expect(page.locator("#cluster-bank [aria-selected=true]")).to_contain_text("chunking")
    expect(page.locator(".cluster-detail .detail-label")).to_have_text("chunking")

    press(page, "Control+z")
    expect(statuses(page)).to_contain_text('Undid merge of "NER" into "chunking".')
    press(page, "Control+Shift+z")
    expect(statuses(page)).to_contain_text('Redid merge of "NER" into "chunking".')
    wait_saved(page)


def test_s_splits_the_ticked_members_into_a_new_cluster(new_page):
    page, stored, clusters, ids = workspace_with_clusters(new_page)
    from annotation.models import Assignment
    from tests.e2e.data import apply_ops

    user = Assignment.objects.get(annotation=stored).user
    apply_ops(stored, user, [{"op": "assign", "mention": ids[2], "cluster": clusters["NER"]}])
    expect(row(page, "NER").locator(".bank-count")).to_have_text("2")
    select_by_search(page, "NER")
    page.get_by_role("checkbox", name="Split off chunking").check()
    page.locator("body").focus()
    press(page, "s")
    wait_saved(page)

    expect(row(page, "NER").locator(".bank-count")).to_have_text("1")
    expect(row(page, "chunking")).to_have_count(1)
    assert len(annotation(page, stored.pk)["clusters"]) == 7


def test_the_help_shows_the_split_key_and_only_the_keys_of_the_project(new_page):
    page, _, _, _ = workspace_with_clusters(new_page)
    press(page, "?")
    help = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(help).to_contain_text("Split the members ticked")
    expect(help).to_contain_text("Picker: choose")
    for absent in (
        "Link the anaphor",
        "Reject the current mention",
        "Select text by keyboard",
        "Selection:",
    ):
        expect(help).not_to_contain_text(absent)
    press(page, "Escape")

    anaphora, _, _ = chemu_workspace(new_page, allow_reject_mentions=True)
    press(anaphora, "?")
    help = anaphora.get_by_role("dialog", name="Keyboard shortcuts")
    expect(help).to_contain_text("Link the anaphor")
    expect(help).to_contain_text("Reject the current mention")
    for absent in (
        "Picker:",
        "Split the members",
        "Merge the selected cluster",
        "Select text by keyboard",
    ):
        expect(help).not_to_contain_text(absent)


def test_a_second_link_type_for_a_pair_warns_naming_the_existing_link(new_page):
    # a plain type key now retypes the pair's link (test_anaphora_links.py); Alt adds a second
    page, stored, ids = chemu_workspace(new_page)
    mention(page, ids[6]).dblclick()
    press(page, "a")
    mention(page, ids[1]).click()
    press(page, "3")
    wait_saved(page)
    press(page, "Alt+1")
    wait_saved(page)

    expect(statuses(page)).to_contain_text("was already linked to")
    expect(statuses(page)).to_contain_text("as REACTION_ASSOCIATED")
    assert links(page, stored.pk) == {
        ("REACTION_ASSOCIATED", ids[6], ids[1]),
        ("COREFERENCE", ids[6], ids[1]),
    }


def test_a_refusal_names_the_mentions_by_text_not_by_id(new_page):
    page, _, ids = chemu_workspace(new_page)
    mention(page, ids[1]).dblclick()
    press(page, "a")
    mention(page, ids[6]).click()
    press(page, "1")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text('the anaphor "Ethyl 4-(4-fluorophenyl)')
    expect(alert).to_contain_text("(document 1, word")
    expect(alert).not_to_contain_text(re.compile(r"#\d+"))


def test_a_rejected_mention_is_not_offered_as_a_link_end(new_page):
    page, stored, ids = chemu_workspace(new_page, allow_reject_mentions=True)
    mention(page, ids[6]).dblclick()
    press(page, "Delete")
    wait_saved(page)
    mention(page, ids[6]).dblclick()
    press(page, "a")
    expect(statuses(page)).to_contain_text("is rejected, so it cannot be the anaphor of a link")
    expect(mention(page, ids[6])).not_to_have_class(re.compile(r"\bis-anaphor\b"))

    mention(page, ids[7]).dblclick()
    press(page, "a")
    mention(page, ids[6]).click()
    expect(page.locator(".link-builder")).to_contain_text("rejected: not a link end")
    expect(page.get_by_role("group", name="Link type").get_by_role("button").first).to_be_disabled()
    press(page, "1")
    expect(statuses(page)).to_contain_text("cannot be the antecedent of a link")
    assert links(page, stored.pk) == set()
