"""`manage.py train_suggester`: trains on a project's gold topics, prints held-out scores from
our scorer, stores the model under MODELS_DIR, and can make it the project's backend."""

import io

import pytest
from django.core.management import CommandError, call_command

from annotation.models import Project
from annotation.services.imports.topics import topics_import
from modelserve.backends import get_backend
from modelserve.selectors import project_suggestion_settings
from tests.paths import SCICO_DEMO

pytestmark = pytest.mark.django_db


def test_training_on_the_demo_gold_prints_held_out_scores_and_activates_the_model(
    settings, tmp_path
):
    settings.MODELS_DIR = tmp_path
    project = Project.objects.create(name="Train me")
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    out = io.StringIO()

    call_command(
        "train_suggester", "--project", "Train me", "--epochs", "2", "--activate", stdout=out
    )

    printed = out.getvalue()
    assert "held-out: CoNLL F1" in printed
    assert "path ratio" in printed
    configured = project_suggestion_settings(project.pk)
    assert configured.backend == "trained"
    model_dir = tmp_path / "trained" / "train-me"
    assert configured.params == {"model_dir": str(model_dir)}
    assert (model_dir / "config.json").exists()
    backend = get_backend("trained", configured.params)
    from annotation.selectors.topic_data import topic_data

    suggestions = backend.suggest(topic_data(project.topics.first()))
    covered = sorted(m for cluster in suggestions.clusters for m in cluster.mentions)
    assert covered == list(range(project.topics.first().mentions.count()))

    # it records what it saw: the Models page leaves those topics out, naming the folder
    from modelserve.evaluation_seen import seen_topics

    seen = seen_topics(project.pk)
    assert set(seen) == set(project.topics.values_list("pk", flat=True))
    assert set(map(tuple, seen.values())) == {("the trained folder trained/train-me",)}


def test_a_project_without_gold_is_refused_with_a_message():
    Project.objects.create(name="Empty")

    with pytest.raises(CommandError, match="no gold or submitted adjudicated topics"):
        call_command("train_suggester", "--project", "Empty")
