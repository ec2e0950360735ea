"""A suggestion run on an anaphora topic, through Redis and a real Celery model worker with the
real `chemu` backend: a mention tagger trained here (tiny, with the real training code) makes
it propose mentions from the text, stored as mention suggestions, and links that name them;
accepting the proposed ends through the API then offers such a link."""

from __future__ import annotations

import copy
import os
import time
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from corefscore.formats import read
from modelserve.models import Suggestion
from modelserve.services.runs import suggestion_run_request
from modelserve.services.settings import suggestion_settings_set
from tests.e2e.data import topic_from_data
from tests.factories import ProjectFactory, UserFactory, assign
from tests.paths import CHEMU_TRAIN
from tests.trained_models import chemu_link_model
from tests.workers import start_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def tagged_models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A models folder with the chemu link model (the trained default, else the small one the
    test run shares) and a tiny mention tagger fitted to the first two training snippets."""
    from modelserve.backends.chemu import is_trained
    from modelserve.backends.chemu_mentions import train_chemu_mentions

    out = tmp_path_factory.mktemp("models")
    topics = read("chemu", CHEMU_TRAIN, skip_invalid=True).topics
    default = settings.MODELS_DIR / "chemu"
    links = default if is_trained(default) else chemu_link_model(tmp_path_factory)
    os.symlink(links, out / "chemu")
    train_chemu_mentions(
        topics[:2],
        out / "chemu-mentions",
        epochs=15,
        hidden=32,
        holdout_fraction=0.0,
        device="cpu",
        log=lambda line: None,
    )
    return out


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory) -> Path:
    return tagged_models_dir(tmp_path_factory)


def half_annotated_snippet():
    """The first training snippet with every other gold mention left out: the rest is what
    the tagger should find."""
    data = copy.copy(read("chemu", CHEMU_TRAIN, skip_invalid=True).topics[0])
    data.mentions, data.links, data.clusters = data.mentions[::2], [], []
    return data


def test_a_run_on_an_anaphora_topic_stores_proposed_mentions_and_links_that_name_them(
    services, models_dir
):
    project = ProjectFactory(anaphora=True, allow_add_mentions=True, hierarchy=False)
    suggestion_settings_set(project=project, backend="chemu")
    topic = topic_from_data(project, half_annotated_snippet())
    user = UserFactory()
    _, annotation = assign(topic, user)
    worker = start_worker(services, MODELS_DIR=str(models_dir), SUGGEST_DEVICE="cpu")
    try:
        run = wait_for(suggestion_run_request(topic=topic, user=user), {"succeeded", "failed"})
    finally:
        worker.stop()

    assert run.status == "succeeded", run.error
    assert "not ready" not in run.message  # the tagger is trained: nothing to excuse
    proposed = {s.pk: s.payload for s in Suggestion.objects.filter(run=run, kind="mention")}
    assert proposed, run.message
    document = topic.documents.get()
    existing = {tuple(map(tuple, m.spans)) for m in topic.mentions.all()}
    for payload in proposed.values():
        assert payload["document"] == document.pk
        assert all(0 <= s <= e < document.token_count for s, e in payload["spans"])
        assert tuple(map(tuple, payload["spans"])) not in existing
    links = [s.payload for s in Suggestion.objects.filter(run=run, kind="link")]
    to_proposed = [
        link for link in links if "proposed_anaphor" in link or "proposed_antecedent" in link
    ]
    assert to_proposed, links
    mention_ids = set(topic.mentions.values_list("pk", flat=True))
    for link in links:  # each end is the topic's mention or this run's proposal, never past them
        for end in ("anaphor", "antecedent"):
            if link[end] is None:
                assert link[f"proposed_{end}"] in proposed
            else:
                assert link[end] in mention_ids
                assert f"proposed_{end}" not in link

    # Accepting the proposed ends of one such link through the API offers the link itself.
    client = APIClient()
    client.force_authenticate(user)
    link = to_proposed[0]
    wanted = [link[f"proposed_{end}"] for end in ("anaphor", "antecedent") if link[end] is None]
    url = f"/api/annotations/{annotation.pk}/suggestions/"
    for version, suggestion in enumerate(wanted):
        item = next(i for i in client.get(url).json()["mentions"] if i["suggestion"] == suggestion)
        operation = {"op": "accept_suggestion", "suggestion": suggestion}
        answer = client.post(
            f"/api/annotations/{annotation.pk}/operations/",
            {
                "expected_version": version,
                "operation": operation | {"operation": item["operation"]},
            },
            format="json",
        )
        assert answer.status_code == 200, answer.content
    offered = client.get(url).json()["links"]
    assert any(
        i["operation"]["type"] == link["type"]
        and all(i["operation"][end] == link[end] for end in ("anaphor", "antecedent") if link[end])
        for i in offered
    ), offered


def test_the_model_worker_trains_the_tagger_in_the_background_and_serves_runs_meanwhile(
    services, models_dir, tmp_path, settings
):
    from modelserve.models import ModelTraining
    from modelserve.services.trainings import model_training_request

    untagged = tmp_path / "models"
    untagged.mkdir()
    os.symlink((models_dir / "chemu").resolve(), untagged / "chemu")
    settings.MODELS_DIR = untagged  # what this process (the prepare step) looks at
    training = model_training_request()  # the task is sent on commit
    project = ProjectFactory(anaphora=True, allow_add_mentions=True, hierarchy=False)
    suggestion_settings_set(project=project, backend="chemu")
    topic = topic_from_data(project, half_annotated_snippet())
    worker = start_worker(services, MODELS_DIR=str(untagged), SUGGEST_DEVICE="cpu")
    try:
        deadline = time.monotonic() + 120
        while training.status == "queued" and time.monotonic() < deadline:
            time.sleep(0.3)
            training.refresh_from_db()
        assert training.status == "running", training.message
        run = wait_for(
            suggestion_run_request(topic=topic, user=UserFactory()), {"succeeded", "failed"}
        )
        training.refresh_from_db()
    finally:
        worker.stop()

    assert run.status == "succeeded", run.error
    assert training.status == "running"
    assert training.message
    # ... and the workspace is told why no mentions come with the links: the
    # run's message, as the topic's runs answer gives it to the interface
    client = APIClient()
    client.force_authenticate(UserFactory(is_staff=True))
    shown = client.get(f"/api/topics/{topic.pk}/suggestion-runs/").json()["runs"][0]["message"]
    assert shown == run.message
    assert "mention proposals are not ready yet: the mention tagger is training (" in shown
    assert training.heartbeat_at is not None
    # Until the tagger is saved, the run links the existing mentions only.
    assert not Suggestion.objects.filter(run=run, kind="mention").exists()
    links = [s.payload for s in Suggestion.objects.filter(run=run, kind="link")]
    assert links
    mention_ids = set(topic.mentions.values_list("pk", flat=True))
    for link in links:
        assert {link["anaphor"], link["antecedent"]} <= mention_ids
        assert "proposed_anaphor" not in link
        assert "proposed_antecedent" not in link
    assert ModelTraining.objects.count() == 1
