"""The hierarchy panel: built by drag and drop and by keyboard, following merges and emptied
clusters exactly as the server's effects say."""

import re

from playwright.sync_api import expect

from annotation.models import Project
from tests.e2e.data import apply_ops, mention_ids
from tests.e2e.workspace import annotation, edges_by_label, open_workspace, press, wait_saved
from tests.factories import UserFactory, assign, make_topic

DOCUMENTS = [
    ["Sequence", "labeling", "covers", "NER", "and", "chunking", "."],
    ["A", "CRF", "tagger", "and", "a", "BiLSTM", "tagger", "label", "tokens", "."],
    ["Gene", "mention", "recognition", "is", "biomedical", "NER", "."],
]
# (document, spans): one cluster each, labelled with the mention text.
MENTIONS = [
    (0, [[0, 1]]),
    (0, [[3, 3]]),
    (0, [[5, 5]]),
    (1, [[1, 2]]),
    (1, [[5, 6]]),
    (2, [[0, 2]]),
    (2, [[4, 5]]),
]
LABELS = [
    "Sequence labeling",
    "NER",
    "chunking",
    "CRF tagger",
    "BiLSTM tagger",
    "Gene mention recognition",
    "biomedical NER",
]


def workspace_with_clusters(new_page, *, single_parent=True, edges=()):
    project = Project.objects.create(name="Hierarchy", hierarchy=True, single_parent=single_parent)
    topic = make_topic(project, documents=DOCUMENTS, mentions=MENTIONS)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    ids = mention_ids(topic)
    created = apply_ops(
        stored, user, [{"op": "assign", "mention": m, "cluster": None} for m in ids]
    )
    clusters = {LABELS[i]: applied.created["cluster"] for i, applied in enumerate(created)}
    apply_ops(
        stored,
        user,
        [{"op": "add_edge", "parent": clusters[p], "child": clusters[c]} for p, c in edges],
    )
    page = open_workspace(new_page(user), assignment.pk)
    return page, stored, clusters, ids


def row(page, label):
    return page.locator(
        "[role=tree] [role=treeitem]",
        has=page.locator(".tree-label", has_text=re.compile(f"^{label}$")),
    )


def select_by_search(page, label):
    press(page, "/")
    page.keyboard.type(label)
    press(page, "Enter")
    expect(page.locator("#cluster-bank [aria-selected=true]")).to_contain_text(label)


def test_a_hierarchy_is_built_by_drag_and_drop(new_page):
    page, stored, clusters, _ = workspace_with_clusters(new_page)

    for child, parent in [
        ("CRF tagger", "Sequence labeling"),
        ("NER", "Sequence labeling"),
        ("biomedical NER", "NER"),
    ]:
        row(page, child).drag_to(row(page, parent))
        wait_saved(page)
        expect(row(page, child)).to_have_attribute("data-parent", str(clusters[parent]))

    assert edges_by_label(annotation(page, stored.pk)) == {
        ("Sequence labeling", "CRF tagger"),
        ("Sequence labeling", "NER"),
        ("NER", "biomedical NER"),
    }
    expect(row(page, "biomedical NER")).to_have_attribute("aria-level", "3")

    row(page, "CRF tagger").drag_to(page.locator("[data-drop=root]"))
    wait_saved(page)
    assert ("Sequence labeling", "CRF tagger") not in edges_by_label(annotation(page, stored.pk))
    expect(row(page, "CRF tagger")).to_have_attribute("aria-level", "1")


def test_a_hierarchy_is_built_and_annotated_by_keyboard(new_page):
    page, stored, clusters, _ = workspace_with_clusters(new_page)

    select_by_search(page, "CRF tagger")
    press(page, "p")
    page.keyboard.type("Sequence lab")
    press(page, "Enter")
    wait_saved(page)
    assert edges_by_label(annotation(page, stored.pk)) == {("Sequence labeling", "CRF tagger")}
    expect(row(page, "CRF tagger")).to_have_attribute("aria-level", "2")

    press(page, "n")
    page.keyboard.type("a tool, not the task")
    press(page, "Control+Enter")
    press(page, "F2")
    page.keyboard.press("Control+a")
    page.keyboard.type("CRF taggers")
    press(page, "Enter")
    wait_saved(page)
    crf = next(
        c for c in annotation(page, stored.pk)["clusters"] if c["id"] == clusters["CRF tagger"]
    )
    assert (crf["label"], crf["note"]) == ("CRF taggers", "a tool, not the task")
    expect(row(page, "CRF taggers").locator(".note-mark")).to_be_visible()

    press(page, "r")
    wait_saved(page)
    assert edges_by_label(annotation(page, stored.pk)) == set()

    # Collapse and expand (C) the selected cluster's subtree.
    press(page, "p")
    page.keyboard.type("Sequence lab")
    press(page, "Enter")
    select_by_search(page, "Sequence labeling")
    press(page, "c")
    expect(row(page, "CRF taggers")).to_have_count(0)
    expect(row(page, "Sequence labeling")).to_have_attribute("aria-expanded", "false")
    press(page, "c")
    expect(row(page, "CRF taggers")).to_have_attribute("aria-level", "2")

    # The tree itself, by keyboard: T focuses it, arrows move, Enter selects.
    press(page, "t")
    expect(page.locator("[role=tree]")).to_be_focused()
    press(page, "Home")
    expect(page.locator("#cluster-bank [aria-selected=true]")).to_contain_text("Sequence labeling")
    assert page.errors == []


def test_a_cycle_is_refused_with_the_path(new_page):
    page, stored, _, _ = workspace_with_clusters(
        new_page, edges=[("Sequence labeling", "NER"), ("NER", "biomedical NER")]
    )
    select_by_search(page, "Sequence labeling")
    press(page, "p")
    page.keyboard.type("biomedical")
    press(page, "Enter")
    expect(page.get_by_role("alert")).to_contain_text("cycle")
    expect(page.get_by_role("alert")).to_contain_text("biomedical NER")
    wait_saved(page)
    assert len(annotation(page, stored.pk)["edges"]) == 2


def test_merging_two_clusters_moves_the_children_in_the_tree(new_page):
    page, stored, clusters, _ = workspace_with_clusters(
        new_page, edges=[("NER", "biomedical NER"), ("chunking", "CRF tagger")]
    )

    select_by_search(page, "NER")
    press(page, "m")
    page.keyboard.type("chunking")
    press(page, "Enter")
    wait_saved(page)

    expect(row(page, "NER")).to_have_count(0)
    chunking = str(clusters["chunking"])
    expect(row(page, "biomedical NER")).to_have_attribute("data-parent", chunking)
    expect(row(page, "CRF tagger")).to_have_attribute("data-parent", chunking)
    expect(row(page, "chunking").locator(".bank-count")).to_have_text("2")
    assert edges_by_label(annotation(page, stored.pk)) == {
        ("chunking", "biomedical NER"),
        ("chunking", "CRF tagger"),
    }


def test_emptying_a_cluster_moves_its_children_up(new_page):
    page, stored, clusters, ids = workspace_with_clusters(
        new_page, edges=[("Sequence labeling", "NER"), ("NER", "biomedical NER")]
    )

    page.locator(f".m[data-mention='{ids[0]}']").click()  # selects 'Sequence labeling'
    page.locator(f".m[data-mention='{ids[1]}']").dblclick()  # NER's only mention becomes current
    expect(page.locator(".m.is-current")).to_have_attribute("data-mention", str(ids[1]))
    page.locator(f".m[data-mention='{ids[0]}']").click()
    press(page, "Space")
    wait_saved(page)

    expect(row(page, "NER")).to_have_count(0)
    expect(row(page, "biomedical NER")).to_have_attribute(
        "data-parent", str(clusters["Sequence labeling"])
    )
    expect(page.get_by_role("status").filter(has_text="left empty")).to_contain_text("moved up")
    assert edges_by_label(annotation(page, stored.pk)) == {("Sequence labeling", "biomedical NER")}


def test_a_dag_project_adds_a_second_parent_by_keyboard_and_by_ctrl_drop(new_page):
    page, stored, _, _ = workspace_with_clusters(
        new_page, single_parent=False, edges=[("NER", "biomedical NER")]
    )
    select_by_search(page, "biomedical NER")
    press(page, "Shift+P")
    page.keyboard.type("Gene mention")
    press(page, "Enter")
    wait_saved(page)
    expect(row(page, "biomedical NER")).to_have_count(2)
    page.keyboard.down("Control")
    row(page, "CRF tagger").drag_to(row(page, "Sequence labeling"))
    page.keyboard.up("Control")
    wait_saved(page)
    assert edges_by_label(annotation(page, stored.pk)) == {
        ("NER", "biomedical NER"),
        ("Gene mention recognition", "biomedical NER"),
        ("Sequence labeling", "CRF tagger"),
    }


def test_splitting_mentions_off_a_cluster_makes_a_new_top_level_cluster(new_page):
    page, stored, clusters, ids = workspace_with_clusters(
        new_page, edges=[("Sequence labeling", "NER")]
    )
    from annotation.models import Assignment

    user = Assignment.objects.get(annotation=stored).user
    apply_ops(
        stored, user, [{"op": "assign", "mention": ids[2], "cluster": clusters["NER"]}]
    )  # chunking joins NER
    expect(row(page, "NER").locator(".bank-count")).to_have_text("2")

    select_by_search(page, "NER")
    page.get_by_role("checkbox", name="Split off chunking").check()
    page.get_by_role("button", name="Split 1 into a new cluster").click()
    wait_saved(page)

    expect(row(page, "NER").locator(".bank-count")).to_have_text("1")
    expect(row(page, "chunking")).to_have_attribute("aria-level", "1")
    expect(page.locator("#cluster-bank [aria-selected=true]")).to_contain_text("chunking")
    assert len(annotation(page, stored.pk)["clusters"]) == 7
