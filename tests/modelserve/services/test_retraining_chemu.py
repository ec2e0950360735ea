"""A ChEMU project's retraining from its own submitted snippets (docs/learning.md), in this
process with the real training code: the link model and a tiny mention tagger become a
version with held-out scores, and a second retraining scores the serving version on the same
held-out snippets, which decides whether the new one serves (the eligibility rule)."""

from __future__ import annotations

import pytest
from django.conf import settings

from annotation.models import Project
from annotation.services.imports.annotator_files import annotator_annotations_import
from annotation.services.imports.topics import topics_import
from corefscore.formats import read, write
from modelserve.models import ModelTraining, ModelVersion
from modelserve.services.settings import suggestion_settings_set
from modelserve.services.trainings import model_training_execute
from modelserve.version_selectors import learned_run_settings, serving_model_version
from tests.paths import CHEMU_TRAIN

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def chemu_project(settings, tmp_path):
    settings.MODELS_DIR = tmp_path
    settings.LEARN_EVERY_SUBMISSIONS = 1000  # the test queues its trainings itself
    settings.LEARN_EPOCHS = 1
    settings.LEARN_MENTION_EPOCHS = 1
    settings.SUGGEST_DEVICE = "cpu"
    settings.LEARN_MIN_HELDOUT_TOPICS = 1  # one snippet is held out here
    # five snippets: 1210 falls on the held-out side of the stable hash, the others train
    # (read leniently and written back: one of them has relations the strict import refuses)
    path = tmp_path / "five.jsonlines"
    snippets = read("chemu", CHEMU_TRAIN, skip_invalid=True).topics
    write("chemu", snippets[:5], path)
    # the base a retraining starts from: the project's five again (under the same ids; they
    # must be left out, the held-out one above all) and three more
    settings.CHEMU_TRAIN_FILE = tmp_path / "base.jsonlines"
    write("chemu", snippets[:8], settings.CHEMU_TRAIN_FILE)
    settings.LEARN_CHEMU_BASE = True
    project = Project.objects.create(
        name="chemistry", anaphora=True, hierarchy=False, allow_add_mentions=True
    )
    topics_import(project=project, path=path, format="chemu")
    suggestion_settings_set(project=project, learn=True)
    annotator_annotations_import(
        project=project,
        path=path,
        format="chemu",
        username="chemist",
        create_user=True,
        submit=True,
    )
    return project


def retrain(project: Project) -> ModelVersion:
    training = ModelTraining.objects.create(name=f"learn-{project.pk}", project=project)
    outcome = model_training_execute(training_id=training.pk, worker="here")
    training.refresh_from_db()
    assert training.status == "succeeded", training.error
    assert outcome.startswith("succeeded: version")
    base = [t for t in read("chemu", settings.CHEMU_TRAIN_FILE, skip_invalid=True).topics[5:]]
    assert f"beside {sum(1 for t in base if t.links)} base snippets" in outcome
    return ModelVersion.objects.get(training=training)


def test_a_chemu_project_learns_links_and_mentions_and_the_next_is_judged_on_the_same_topics(
    chemu_project,
):
    first = retrain(chemu_project)

    assert (first.backend, first.number) == ("chemu", 1)
    assert (first.topics_used, first.holdout_topics) == (4, 1)
    assert set(first.scores) >= {"relation_f1", "relation_f1_relaxed", "mention_f1"}
    assert first.score == first.scores["relation_f1"]
    assert first.params["mentions_dir"].startswith(first.path)
    assert sorted(first.trained_topics) == sorted(
        chemu_project.topics.exclude(external_id="1210").values_list("pk", flat=True)
    )
    # What served: the project's backend as set, a cluster model that suggests no link, so
    # its figure is 0; the version is eligible unless it links nothing either.
    assert first.compared_with == "the base model (minilm), which suggests no links"
    assert first.previous_score == 0.0
    assert first.eligible == (not first.degenerate)
    assert learned_run_settings(chemu_project.pk) == (
        ("chemu", first.params) if first.eligible else None
    )

    # As if it had been shown not worse: the next one is judged against it.
    ModelVersion.objects.filter(pk=first.pk).update(eligible=True)
    assert learned_run_settings(chemu_project.pk) == ("chemu", first.params)
    second = retrain(chemu_project)

    # the serving version was scored again on the same held-out snippet: its own figure
    assert second.number == 2
    assert second.compared_with == "version 1"
    assert second.previous_score == pytest.approx(first.score)
    assert second.not_worse == (second.score >= first.score)
    assert second.eligible == (second.not_worse and not second.degenerate)
    assert serving_model_version(chemu_project.pk) == (second if second.eligible else first)
