"""An adjudicator resolves a three-annotator topic with the keys: N goes to each disagreement,
3 adopts the third annotator's decision (one logged, undoable operation each), the counter
reaches zero, the topic is submitted, and the adjudicated export holds the result. Also: the
submit dialog asks while disagreements remain, links are adopted and removed the same way
(with an anaphor marked, the digits still choose the link type), and screenshots."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from adjudication.services.adjudications import create_adjudication
from annotation.models import Annotation, Project
from annotation.services.assignments import assignment_submit
from annotation.services.exports import annotations_export
from tests.e2e.data import annotate_and_submit as annotate
from tests.e2e.data import apply_gold, apply_ops, mention_ids, scico_demo_topic, topic_from_data
from tests.e2e.workspace import annotation, partition, press, wait_saved
from tests.factories import DEFAULT_MENTIONS, UserFactory, assign, make_topic

# Three annotators over the 7 mentions m0..m6 of the default topic.
VERSIONS = {
    "alice": [[0, 1, 2], [3, 4], [5, 6]],
    "bob": [[0, 1, 2], [3, 4], [5, 6]],
    "carol": [[0, 1], [2, 3, 4], [5], [6]],
}


def remaining(page) -> int:
    return int(page.locator("[data-adjudication-remaining]").inner_text())


def exported_partition(tmp_path, project) -> set[frozenset[tuple[int, int, int]]]:
    annotations_export(
        project=project, format="scico", out=tmp_path / "gold.jsonl", source="adjudicated"
    )
    (line,) = (tmp_path / "gold.jsonl").read_text().splitlines()
    clusters: dict[int, set[tuple[int, int, int]]] = {}
    for document, start, end, cluster in json.loads(line)["mentions"]:
        clusters.setdefault(cluster, set()).add((document, start, end))
    return {frozenset(members) for members in clusters.values()}


def test_an_adjudicator_resolves_a_topic_with_n_and_digits_and_the_export_holds_it(
    new_page, tmp_path
):
    project = Project.objects.create(name="Adjudicated", hierarchy=True)
    topic = make_topic(project)
    for username, clusters in VERSIONS.items():
        annotate(topic, username, clusters)
    judge = UserFactory(username="judge")
    assignment = create_adjudication(topic=topic, user=judge, seed="consensus")
    ids = mention_ids(topic)

    page = new_page(judge)
    page.goto(f"/annotate/{assignment.pk}")
    page.wait_for_selector("html[data-adjudication-ready='true']")
    expect(page.locator("[data-adjudication] .adj-col")).to_have_count(3)
    assert remaining(page) > 0

    # The first disagreement, adopted from carol, then undone and redone: ordinary operations.
    press(page, "N")
    expect(page.locator("[data-adjudication-item]")).to_be_visible()
    before = partition(annotation(page, assignment.annotation.pk))
    press(page, "3")
    wait_saved(page)
    adopted = partition(annotation(page, assignment.annotation.pk))
    assert adopted != before
    press(page, "Control+z")
    wait_saved(page)
    assert partition(annotation(page, assignment.annotation.pk)) == before
    press(page, "Control+Shift+z")
    wait_saved(page)
    assert partition(annotation(page, assignment.annotation.pk)) == adopted

    for _ in range(20):
        if remaining(page) == 0:
            break
        press(page, "N", "3")
        wait_saved(page)
    expect(page.locator("[data-adjudication-remaining]")).to_have_text("0")

    page.get_by_role("button", name="Submit").click()
    dialog = page.get_by_role("dialog", name="Submit this topic?")
    expect(dialog.locator("[data-unfinished='disagreements']")).to_have_count(0)
    press(page, "Enter")
    expect(page.locator(".ws[data-read-only='true']")).to_be_visible()

    carol = {frozenset(ids[m] for m in cluster) for cluster in VERSIONS["carol"]}
    stored = Annotation.objects.get(pk=assignment.annotation.pk)
    assert partition(annotation(page, stored.pk)) == carol
    places = {
        ids[i]: (doc, spans[0][0], spans[0][1]) for i, (doc, spans) in enumerate(DEFAULT_MENTIONS)
    }
    assert exported_partition(tmp_path, project) == {
        frozenset(places[m] for m in cluster) for cluster in carol
    }


def test_submitting_with_disagreements_left_asks_first(new_page):
    project = Project.objects.create(name="Unsettled", hierarchy=True)
    topic = make_topic(project)
    for username, clusters in VERSIONS.items():
        annotate(topic, username, clusters)
    judge = UserFactory(username="judge2")
    assignment = create_adjudication(topic=topic, user=judge, seed="consensus")

    page = new_page(judge)
    page.goto(f"/annotate/{assignment.pk}")
    page.wait_for_selector("html[data-adjudication-ready='true']")
    page.get_by_role("button", name="Submit").click()
    dialog = page.get_by_role("dialog", name="Submit this topic?")

    expect(dialog.locator("[data-unfinished='disagreements']")).to_be_visible()
    expect(dialog.get_by_role("button", name="Submit")).to_be_disabled()
    dialog.get_by_role("checkbox").check()
    expect(dialog.get_by_role("button", name="Submit")).to_be_enabled()


SIZES = [(1400, 900), (1024, 768)]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_adjudication_workspace_screenshots(new_page, artifacts, width, height):
    """Saved to test-artifacts/ to look at; what must hold at both sizes: the annotators'
    strip leaves the documents and the bank room, and each annotator has a column."""
    data = scico_demo_topic(0)
    project = Project.objects.create(name="SciCo adjudication", hierarchy=True)
    topic = topic_from_data(project, data)
    ids = mention_ids(topic)
    for n, username in enumerate(("alice", "bob", "carol")):
        user = UserFactory(username=username)
        assignment, stored = assign(topic, user)
        apply_gold(stored, user, data, ids, links=False)
        if n:  # bob and carol each move a few mentions elsewhere
            moves = [{"op": "assign", "mention": ids[i], "cluster": None} for i in (n, n + 4)]
            apply_ops(stored, user, moves)
        assignment_submit(assignment_id=assignment.pk, user=user)
    judge = UserFactory(username=f"judge-{width}")
    assignment = create_adjudication(topic=topic, user=judge, seed="consensus")

    page = new_page(judge)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/annotate/{assignment.pk}")
    page.wait_for_selector("html[data-adjudication-ready='true']")
    press(page, "N")
    expect(page.locator("[data-adjudication-item]")).to_be_visible()
    page.screenshot(path=str(artifacts / f"adjudication-{width}x{height}.png"))

    expect(page.locator("[data-adjudication] .adj-col")).to_have_count(3)
    strip = page.locator("[data-adjudication]").bounding_box()
    assert strip["height"] <= 0.34 * height
    assert page.locator("#cluster-bank .bank-row").count() >= 4
    expect(page.locator("#cluster-bank [data-support]").first).to_be_visible()
    press(page, "?")
    page.screenshot(path=str(artifacts / f"adjudication-help-{width}x{height}.png"))


def test_links_are_adopted_and_removed_with_the_keys_in_an_anaphora_project(new_page):
    project = Project.objects.create(name="Linked", hierarchy=False, anaphora=True)
    topic = make_topic(project)
    ids = mention_ids(topic)
    coreference = {"op": "add_link", "type": "COREFERENCE", "anaphor": ids[6], "antecedent": ids[5]}
    transformed = {"op": "add_link", "type": "TRANSFORMED", "anaphor": ids[3], "antecedent": ids[2]}
    for username, ops in (
        ("alice", [coreference]),
        ("bob", [coreference]),
        ("carol", [transformed]),
    ):
        user = UserFactory(username=username)
        assignment, stored = assign(topic, user)
        apply_ops(stored, user, ops)
        assignment_submit(assignment_id=assignment.pk, user=user)
    judge = UserFactory(username="linker")
    assignment = create_adjudication(topic=topic, user=judge, seed="consensus")

    page = new_page(judge)
    page.goto(f"/annotate/{assignment.pk}")
    page.wait_for_selector("html[data-adjudication-ready='true']")
    assert remaining(page) == 2

    press(page, "N")  # the TRANSFORMED link only carol has: 3 adds it
    expect(page.locator("[data-adjudication-item]")).to_have_attribute(
        "data-item", f"l:TRANSFORMED|{ids[3]}|{ids[2]}"
    )
    press(page, "3")
    wait_saved(page)
    press(page, "N")  # the COREFERENCE link carol lacks: 3 removes it
    expect(page.locator(".link-row [data-support='2/3']")).to_be_visible()
    press(page, "3")
    wait_saved(page)

    expect(page.locator("[data-adjudication-remaining]")).to_have_text("0")
    links = annotation(page, assignment.annotation.pk)["links"]
    assert links == [["TRANSFORMED", ids[3], ids[2]]]

    # With an anaphor marked (A), 1 is still the COREFERENCE link type, not an adoption.
    press(page, "A", "K", "1")
    wait_saved(page)
    links = annotation(page, assignment.annotation.pk)["links"]
    assert sorted(links) == [["COREFERENCE", ids[6], ids[5]], ["TRANSFORMED", ids[3], ids[2]]]
