"""Model suggestions in the workspace, with a real Celery model worker: Suggest and its progress,
the suggested cluster of the current mention with its score, accept (Y) / reject (X) / undo,
bulk acceptance above a threshold, dashed suggested edges in the tree, dashed suggested links
with the chemu model, a failed run's message, and a queued run with no worker.

The first test runs before the module's worker starts (a queued run must say no worker is
running); the others share one worker.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connection
from playwright.sync_api import Page, expect

from annotation.models import Mention, Project
from modelserve.services.settings import suggestion_settings_set
from tests.e2e.data import chemu_demo_topic, scico_demo_topic, topic_from_data
from tests.e2e.workspace import annotation, api, current_mention, open_workspace, press, wait_saved
from tests.factories import UserFactory, assign
from tests.workers import Worker

# Records every state the run status shows (and whether the progress bar is there).
WATCH_RUN = """() => {
  window.__runStates = [];
  const el = document.querySelector("[data-testid=run-status]");
  const note = () => {
    const s = el.dataset.status + (el.querySelector("[role=progressbar]") ? "+bar" : "");
    if (window.__runStates[window.__runStates.length - 1] !== s) window.__runStates.push(s);
  };
  new MutationObserver(note).observe(el, { attributes: true, childList: true, subtree: true });
  note();
}"""
RUN_TIMEOUT_MS = 150_000  # a cold worker loads torch and the model first


@pytest.fixture(scope="session")
def chemu_models_dir(tmp_path_factory):
    """MODELS_DIR for the worker: the trained default model, or the small one the test run
    shares."""
    from modelserve.backends.chemu import is_trained
    from tests.trained_models import chemu_link_model

    if is_trained(settings.MODELS_DIR / "chemu"):
        return None
    out = tmp_path_factory.mktemp("models")
    (out / "chemu").symlink_to(chemu_link_model(tmp_path_factory))
    return out


@pytest.fixture(scope="module")
def model_worker(django_db_setup, services, chemu_models_dir):
    extra = {"SUGGEST_DEVICE": "cpu"}
    if chemu_models_dir is not None:
        extra["MODELS_DIR"] = str(chemu_models_dir)
    worker = Worker(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=services.redis_url,
        secret_key=settings.SECRET_KEY,
        extra_env=extra,
    )
    worker.wait_ready(timeout=120)
    yield worker
    worker.stop()


def reading_order(topic) -> list[int]:
    mentions = Mention.objects.filter(topic=topic).select_related("document")
    return [
        m.id
        for m in sorted(
            mentions, key=lambda m: (m.document.position, m.spans[0][0], m.spans[-1][1], m.id)
        )
    ]


def go_to(page: Page, order: list[int], target: int) -> None:
    """Make `target` the current mention with J/K (the virtual list renders only what is near)."""
    delta = order.index(target) - order.index(current_mention(page))
    press(page, *(["j"] * delta if delta > 0 else ["k"] * -delta))
    expect(page.locator(".m.is-current").first).to_have_attribute("data-mention", str(target))


def log(page: Page, annotation_id: int) -> list[dict]:
    return api(page, f"/api/annotations/{annotation_id}/operations/")


def suggest_and_wait(page: Page) -> None:
    """Shift+S, then the run's progress bar while it was queued or running, then its success."""
    page.evaluate(WATCH_RUN)
    press(page, "Shift+S")
    # The bar as the page recorded it: a quick run (a ChEMU topic under load) could come and
    # go between two polls of a live check, and an earlier run's "succeeded" must not pass.
    page.wait_for_function(
        "() => window.__runStates.some((s) => s === 'queued+bar' || s === 'running+bar')"
    )
    expect(page.get_by_test_id("run-status")).to_have_attribute(
        "data-status", "succeeded", timeout=RUN_TIMEOUT_MS
    )
    expect(
        page.get_by_role("button", name=re.compile("^Suggest"))
    ).to_be_enabled()  # its request has answered


def hierarchy_workspace(new_page, **suggestion_settings):
    data = scico_demo_topic(0)
    project = Project.objects.create(name="SciCo suggestions", hierarchy=True)
    if suggestion_settings:
        suggestion_settings_set(project=project, **suggestion_settings)
    topic = topic_from_data(project, data)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    return open_workspace(new_page(user), assignment.pk), topic, stored


def test_with_no_model_worker_a_run_stays_queued_and_the_workspace_says_so(new_page, artifacts):
    page, topic, _ = hierarchy_workspace(new_page)
    expect(page.get_by_test_id("suggestions")).to_contain_text("No suggestions yet")

    press(page, "Shift+S")

    status = page.get_by_test_id("run-status")
    expect(status).to_have_attribute("data-status", "queued")
    expect(status).to_contain_text("no model worker is running")
    expect(page.get_by_role("progressbar", name="Suggestion run")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Suggest"))).to_be_disabled()
    page.screenshot(path=str(artifacts / "suggestions-queued.png"))
    assert [r["status"] for r in api(page, f"/api/topics/{topic.pk}/suggestion-runs/")["runs"]] == [
        "queued"
    ]
    # A reload finds the queued run and says the same.
    page.reload()
    page.wait_for_selector("html[data-workspace-ready='true']")
    expect(page.get_by_test_id("run-status")).to_contain_text("no model worker is running")
    assert page.errors == []


def test_suggested_clusters_are_accepted_rejected_undone_and_bulk_accepted_by_key(
    new_page, model_worker, artifacts
):
    page, topic, stored = hierarchy_workspace(new_page)
    order = reading_order(topic)

    suggest_and_wait(page)  # it waits for the bar of the queued or running run

    # A suggested cluster of two or more mentions: the first of them opens a new cluster...
    payload = api(page, f"/api/annotations/{stored.pk}/suggestions/")
    group = next(
        m
        for m in sorted(payload["memberships"], key=lambda m: order.index(m["mention"]))
        if len(m["suggested_members"]) >= 2
    )
    first, second = sorted(group["suggested_members"], key=order.index)[:2]
    go_to(page, order, first)
    shown = page.locator(".suggest-current")
    expect(shown).to_have_attribute("data-target", "new")
    expect(shown).to_contain_text("a new cluster")
    expect(shown.locator(".suggest-score")).to_have_text(re.compile(r"^[01]\.\d\d$"))
    expect(page.locator(f".m[data-mention='{second}']").first).to_have_class(
        re.compile(r"\bis-suggested-peer\b")
    )
    press(page, "y")
    wait_saved(page)
    cluster = next(
        c["id"] for c in annotation(page, stored.pk)["clusters"] if first in c["members"]
    )

    # ... and the next one is suggested into that cluster; Y puts it there.
    go_to(page, order, second)
    expect(shown).to_have_attribute("data-target", str(cluster))
    press(page, "y")
    wait_saved(page)
    members = next(
        c["members"] for c in annotation(page, stored.pk)["clusters"] if c["id"] == cluster
    )
    assert {first, second} <= set(members)
    entry = log(page, stored.pk)[-1]
    assert entry["name"] == "accept_suggestion"
    assert entry["payload"]["operation"] == {"op": "assign", "mention": second, "cluster": cluster}

    # Undo reverts the acceptance and its decision: the suggestion is open again.
    press(page, "Control+z")
    wait_saved(page)
    state = annotation(page, stored.pk)
    assert second not in next(c["members"] for c in state["clusters"] if c["id"] == cluster)
    go_to(page, order, second)
    expect(shown).to_have_attribute("data-target", str(cluster))

    # X rejects it (logged, shown as rejected, still acceptable later).
    suggestion = int(shown.get_attribute("data-suggestion"))
    press(page, "x")
    wait_saved(page)
    decisions = annotation(page, stored.pk)["decisions"]
    assert decisions[str(suggestion)] == "rejected"
    assert list(decisions.values()).count("accepted") == 1
    expect(shown).to_contain_text("you rejected this")
    assert [e["name"] for e in log(page, stored.pk)][-2:] == [
        "accept_suggestion",
        "reject_suggestion",
    ]

    # Bulk: every membership scoring 0.5 or more, edges left for the tree.
    press(page, "Shift+Y")
    dialog = page.get_by_role("dialog", name="Accept suggestions above a score")
    dialog.get_by_label("Lowest score to accept").fill("0.5")
    dialog.get_by_label("hierarchy edges").uncheck()
    expect(dialog.get_by_test_id("bulk-threshold")).to_have_text("0.50")
    expected = int(dialog.get_by_test_id("bulk-count").locator("strong").inner_text())
    assert expected > 5
    page.screenshot(path=str(artifacts / "suggestions-bulk.png"))
    before = len(log(page, stored.pk))
    press(page, "Enter")
    expect(dialog).to_be_hidden()
    wait_saved(page)
    entries = log(page, stored.pk)[before:]
    assert len(entries) == expected
    assert {e["name"] for e in entries} == {"accept_suggestion"}
    server_version = annotation(page, stored.pk)["version"]
    expect(page.locator(".ws")).to_have_attribute("data-version", str(server_version))
    expect(page.locator(".notice-status")).to_contain_text(f"Accepted {expected} suggestions")

    # Suggested edges between the new clusters are dashed rows in the tree; Y accepts one there.
    ghost = page.locator(".tree-row.is-suggested").first
    expect(ghost).to_be_visible()
    page.screenshot(path=str(artifacts / "suggestions-hierarchy.png"))
    parent, child = (
        int(ghost.get_attribute("data-parent")),
        int(ghost.get_attribute("data-cluster")),
    )
    ghost.click()
    press(page, "y")
    wait_saved(page)
    assert [parent, child] in annotation(page, stored.pk)["edges"]
    assert log(page, stored.pk)[-1]["payload"]["operation"]["op"] in {"set_parent", "add_edge"}

    # The queue went on from the batch's last version: one more undo and redo, no conflict.
    press(page, "Control+z")
    wait_saved(page)
    press(page, "Control+Shift+z")
    wait_saved(page)
    expect(page.locator(".notice-alert")).to_have_count(0)
    assert page.errors == []


FOCUSED_ARC = "svg.arcs g.arc.is-suggested.is-focused"
# The focused arc's link (type|anaphor|antecedent) has the current mention as its anaphor.
ARC_OF_CURRENT = f"""() => {{
  const arc = document.querySelector("{FOCUSED_ARC}");
  const current = document.querySelector(".m.is-current");
  return !!arc && !!current
    && arc.getAttribute("data-suggested-link").split("|")[1] === current.dataset.mention;
}}"""


def focused_link_of_current(page) -> list[str]:
    page.wait_for_function(ARC_OF_CURRENT)  # the page's state, within the default timeout
    return page.locator(FOCUSED_ARC).get_attribute("data-suggested-link").split("|")


def test_an_anaphora_topic_shows_dashed_suggested_links_and_accepting_one_links(
    new_page, model_worker, artifacts
):
    data = chemu_demo_topic(2)
    project = Project.objects.create(name="ChEMU suggestions", hierarchy=False, anaphora=True)
    suggestion_settings_set(project=project, backend="chemu")
    topic = topic_from_data(project, data)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    page = open_workspace(new_page(user), assignment.pk)

    suggest_and_wait(page)
    # The run's suggestions on the page before G: the run says succeeded before the page has
    # fetched them, and a G before then finds nothing to go to (the flaky-test run lost it).
    expect(page.get_by_test_id("suggestion-counts")).to_contain_text("G next")
    press(page, "g")
    focused = page.locator(".suggest-link.is-focused")
    expect(focused).to_have_count(1)
    arc = page.locator(FOCUSED_ARC)
    expect(arc).to_have_count(1)
    assert arc.locator("path").get_attribute("stroke-dasharray")
    # G lands on a link of which the current mention is the anaphor. Before G is handled the
    # current mention's first link may be focused with the mention as its antecedent, so this
    # waits for the two to agree instead of reading the first frame.
    link_type, anaphor, antecedent = focused_link_of_current(page)
    expect(page.locator(f".m[data-mention='{antecedent}']").first).to_have_class(
        re.compile(r"\bis-suggested-peer\b")
    )
    page.screenshot(path=str(artifacts / "suggestions-anaphora.png"))
    press(page, "l")  # every suggested link of the documents, dashed
    expect(page.locator("svg.arcs g.arc.is-suggested").nth(4)).to_be_attached()
    page.screenshot(path=str(artifacts / "suggestions-anaphora-all.png"))
    press(page, "l")

    press(page, "y")
    wait_saved(page)
    assert [link_type, int(anaphor), int(antecedent)] in annotation(page, stored.pk)["links"]
    expect(
        page.locator(f"svg.arcs [data-link='{link_type}|{anaphor}|{antecedent}']")
    ).to_have_count(1)
    assert log(page, stored.pk)[-1]["name"] == "accept_suggestion"

    # X rejects the next suggested link of the mention (or of the next one).
    press(page, "g")
    rejected = int(page.locator(".suggest-link.is-focused").get_attribute("data-suggestion"))
    press(page, "x")
    wait_saved(page)
    assert annotation(page, stored.pk)["decisions"][str(rejected)] == "rejected"
    expect(page.locator(".notice-alert")).to_have_count(0)
    assert page.errors == []


def test_a_model_error_fails_the_run_and_the_workspace_shows_the_message(new_page, model_worker):
    page, _, _ = hierarchy_workspace(
        new_page,
        backend="cross-encoder",
        params={"model_path": f"{settings.MODELS_DIR}/nonexistent/longformer-scico"},
    )
    press(page, "Shift+S")
    status = page.get_by_test_id("run-status")
    expect(status).to_have_attribute("data-status", "failed", timeout=RUN_TIMEOUT_MS)
    expect(status.get_by_role("alert")).to_contain_text("The suggestion run failed")
    expect(status.get_by_role("alert")).to_contain_text("/nonexistent/longformer-scico")
    expect(page.get_by_role("button", name=re.compile("^Suggest"))).to_be_enabled()
