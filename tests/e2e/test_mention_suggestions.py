"""Proposed mentions in the workspace: drawn dashed in the text, chosen with a click or G, Y
accepts one (an add_mention, logged and undoable), and the link the model proposed to it is
offered once it exists, Y accepting that too.

The first tests store the run directly, so the page has known proposals; the last one asks a
real model worker (the chemu backend with a tiny mention tagger trained here) on a snippet
with half its mentions left out, and accepts what it proposes."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connection
from playwright.sync_api import expect

from annotation.models import Mention
from modelserve.models import ModelTraining, Suggestion, SuggestionRun
from modelserve.services.settings import suggestion_settings_set
from tests.e2e.data import topic_from_data
from tests.e2e.test_suggestions import suggest_and_wait
from tests.e2e.workspace import annotation, api, current_mention, open_workspace, press, wait_saved
from tests.factories import AdminFactory, ProjectFactory, UserFactory, assign, make_topic
from tests.modelserve.api.test_mention_suggestions_api import STIRRED, run_with_proposals
from tests.modelserve.services.test_mention_suggestion_worker import (
    half_annotated_snippet,
    tagged_models_dir,
)
from tests.workers import Worker


def proposal_workspace(new_page):
    project = ProjectFactory(anaphora=True, allow_add_mentions=True, hierarchy=False)
    topic = make_topic(project)
    made = run_with_proposals(topic)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    return open_workspace(new_page(user), assignment.pk), topic, stored, made


def test_accepting_a_suggested_mention_then_the_link_to_it(new_page, artifacts):
    page, topic, stored, made = proposal_workspace(new_page)
    tags = page.locator(".suggested-mention-tag")
    expect(tags).to_have_count(2)
    expect(page.locator(".suggested-mention")).to_have_count(2)

    # Clicking its tag hands Y / X to the proposal: the panel shows its words.
    stirred = page.locator(f"[data-suggested-mention='{made['stirred'].pk}']")
    stirred.click()
    card = page.get_by_test_id("suggested-mention")
    expect(card).to_contain_text("“stirred”")
    expect(stirred).to_have_attribute("aria-pressed", "true")
    page.screenshot(path=str(artifacts / "mention-suggestions-proposed.png"))

    press(page, "y")
    wait_saved(page)
    added = Mention.objects.get(topic=topic, added_in=stored)
    assert added.spans == STIRRED
    entry = api(page, f"/api/annotations/{stored.pk}/operations/")[-1]
    assert entry["name"] == "accept_suggestion"
    assert entry["payload"]["operation"]["op"] == "add_mention"
    expect(tags).to_have_count(1)  # "cooled" is still proposed
    expect(page.locator(f".m[data-mention='{added.pk}']")).to_have_count(1)
    assert current_mention(page) == added.pk

    # The link the model proposed from "stirred" now names the added mention: Y accepts it.
    link = page.locator(f".suggest-link[data-suggestion='{made['to_candidate'].pk}']")
    expect(link).to_be_visible()
    expect(link).to_have_class(re.compile(r"\bis-focused\b"))
    page.screenshot(path=str(artifacts / "mention-suggestions-link.png"))
    press(page, "y")
    wait_saved(page)
    candidate = topic.mentions.get(document__position=2, spans=[[0, 1]], added_in=None)
    assert ["REACTION_ASSOCIATED", added.pk, candidate.pk] in annotation(page, stored.pk)["links"]
    assert page.errors == []


def test_rejecting_a_suggested_mention_with_x_and_undoing_an_accepted_one(new_page):
    page, topic, stored, made = proposal_workspace(new_page)
    tags = page.locator(".suggested-mention-tag")
    expect(tags).to_have_count(2)

    press(page, "g")  # the walk reaches the proposals in reading order
    expect(page.get_by_test_id("suggested-mention")).to_contain_text("“stirred”")
    press(page, "x")
    wait_saved(page)
    assert annotation(page, stored.pk)["decisions"][str(made["stirred"].pk)] == "rejected"
    expect(tags).to_have_count(1)
    # The keys move on to the next proposal.
    expect(page.get_by_test_id("suggested-mention")).to_contain_text("“cooled”")

    press(page, "y")
    wait_saved(page)
    assert Mention.objects.filter(topic=topic, added_in=stored).count() == 1
    expect(tags).to_have_count(0)
    press(page, "Control+z")
    wait_saved(page)
    assert not Mention.objects.filter(topic=topic, added_in=stored).exists()
    expect(tags).to_have_count(1)
    assert page.errors == []


def test_the_admin_suggestions_page_shows_the_mention_rate_and_the_taggers_training(
    new_page, artifacts
):
    project = ProjectFactory(anaphora=True, allow_add_mentions=True, hierarchy=False)
    topic = make_topic(project)
    made = run_with_proposals(topic)
    _, stored = assign(topic, UserFactory())
    for suggestion, decision in [
        (made["stirred"], "accepted"),
        (made["cooled"], "rejected"),
        (made["to_candidate"], "accepted"),
    ]:
        stored.decisions.create(suggestion=suggestion.pk, decision=decision)
    training = ModelTraining.objects.create(
        name="chemu-mentions", status="running", progress=0.4, message="epoch 8/20"
    )
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/suggestions")

    mention_row = page.locator(".acceptance-table tr[data-kind='mention']")
    expect(mention_row).to_contain_text("new mention")
    expect(mention_row).to_contain_text("50.0 %")
    expect(page.locator(".acceptance-table tr[data-kind='link']")).to_contain_text("100.0 %")
    shown = page.locator("[data-training='chemu-mentions']")
    expect(shown).to_contain_text("Training: 40 %")
    expect(shown).to_contain_text("epoch 8/20")
    expect(page.get_by_role("progressbar", name="ChEMU mention tagger")).to_be_visible()
    page.screenshot(path=str(artifacts / "admin-suggestions-mentions.png"), full_page=True)

    # The page follows the training until it is done.
    ModelTraining.objects.filter(pk=training.pk).update(status="succeeded", progress=1.0)
    expect(shown).to_have_attribute("data-status", "succeeded")
    expect(shown).to_contain_text("Trained: suggestion runs propose mentions")
    assert page.errors == []


@pytest.fixture(scope="module")
def tagging_worker(django_db_setup, services, tmp_path_factory):
    """A model worker whose models folder has the chemu link model and a tiny mention tagger."""
    models = tagged_models_dir(tmp_path_factory)
    worker = Worker(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=services.redis_url,
        secret_key=settings.SECRET_KEY,
        extra_env={"MODELS_DIR": str(models), "SUGGEST_DEVICE": "cpu"},
    )
    worker.wait_ready(timeout=120)
    yield worker
    worker.stop()


def test_from_raw_text_to_an_accepted_mention_and_link_with_the_real_model(
    new_page, tagging_worker, artifacts
):
    project = ProjectFactory(anaphora=True, allow_add_mentions=True, hierarchy=False)
    suggestion_settings_set(project=project, backend="chemu")
    topic = topic_from_data(project, half_annotated_snippet())
    user = UserFactory()
    assignment, stored = assign(topic, user)
    page = open_workspace(new_page(user), assignment.pk)

    suggest_and_wait(page)
    run = SuggestionRun.objects.get(topic=topic, status="succeeded")
    link = next(
        s
        for s in Suggestion.objects.filter(run=run, kind="link").order_by("-score")
        if s.payload["anaphor"] is None or s.payload["antecedent"] is None
    )
    expect(page.locator(".suggested-mention-tag").first).to_be_visible()
    page.screenshot(path=str(artifacts / "mention-suggestions-model.png"))

    # Accept the link's proposed end(s), each chosen by its tag (tags of close proposals may
    # overlap, so the click is dispatched to the tag itself).
    for end in ("anaphor", "antecedent"):
        proposal = link.payload.get(f"proposed_{end}")
        if proposal is None:
            continue
        page.locator(f"[data-suggested-mention='{proposal}']").dispatch_event("click")
        expect(page.get_by_test_id("suggested-mention")).to_have_attribute(
            "data-suggestion", str(proposal)
        )
        press(page, "y")
        wait_saved(page)

    row = page.locator(f".suggest-link[data-suggestion='{link.pk}']")
    row.locator(".link-text").click()
    expect(row).to_have_class(re.compile(r"\bis-focused\b"))
    press(page, "y")
    wait_saved(page)
    added = {tuple(map(tuple, m.spans)): m.pk for m in Mention.objects.filter(added_in=stored)}
    ends = []
    for end in ("anaphor", "antecedent"):
        proposal = link.payload.get(f"proposed_{end}")
        if proposal is None:
            ends.append(link.payload[end])
        else:
            spans = Suggestion.objects.get(pk=proposal).payload["spans"]
            ends.append(added[tuple(map(tuple, spans))])
    assert [link.payload["type"], *ends] in annotation(page, stored.pk)["links"]
    page.screenshot(path=str(artifacts / "mention-suggestions-model-linked.png"))
    assert page.errors == []
