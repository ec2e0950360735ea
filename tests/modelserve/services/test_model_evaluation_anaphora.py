"""An anaphora project's Models page scores the chemu backend on its gold links (docs/models.md):
a small real model trained on ChEMU-Ref snippets, the demo's gold, the report's ChEMU metrics."""

from __future__ import annotations

import pytest

from annotation.services.imports.topics import topics_import
from corefscore.formats.chemu import read_chemu_jsonlines
from modelserve.backends.chemu_training import train_chemu
from modelserve.evaluation_selectors import backends_for
from modelserve.services.evaluations import model_evaluation_execute, model_evaluation_request
from tests.factories import ProjectFactory, UserFactory
from tests.paths import CHEMU_DEMO, CHEMU_TRAIN

pytestmark = pytest.mark.django_db(transaction=True)  # the heartbeat thread reads the row


def test_the_chemu_backend_is_scored_on_an_anaphora_projects_gold(settings, tmp_path):
    snippets = read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[:40]
    train_chemu(snippets, tmp_path / "chemu", seed=0, epochs=2, device="cpu", log=lambda _: None)
    settings.MODELS_DIR = tmp_path
    project = ProjectFactory(name="ChEMU", hierarchy=False, anaphora=True)
    topics_import(project=project, path=CHEMU_DEMO, format="chemu")  # with gold links
    assert backends_for(project) == ["chemu"]

    evaluation = model_evaluation_request(project=project, user=UserFactory(), backend="chemu")
    outcome = model_evaluation_execute(evaluation_id=evaluation.pk)

    evaluation.refresh_from_db()
    assert outcome == "succeeded", evaluation.error
    result = evaluation.result
    assert result["scheme"] == "chemu"
    assert "relation_exact_f1" in result["metrics"]
    assert "conll_f1" not in result["metrics"]
    exact = result["overall"]["model"]["relation_exact_f1"]
    assert 0 < exact["score"] <= 1  # a trained model finds some of the gold links
    assert result["overall"]["model"]["mention_f1"]["score"] == 1.0  # the gold's own mentions
