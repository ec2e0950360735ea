"""In-app learning starts from the encoder folder a project chooses, by the training profile
it chooses (docs/learning.md): a Longformer, CDLM, SciBERT or CiteBERT folder the server allows
instead of the packaged MiniLM, SciCo's `scico-b2` recipe instead of the default. A tiny
random encoder stands for them here; the fine-tuning is seconds on the CPU."""

from __future__ import annotations

import json

import pytest
import torch

from modelserve.backends.cross_encoder import THRESHOLDS_FILE
from modelserve.backends.scico_checkpoints import LINEAR_FILE
from modelserve.errors import ModelPathRefused
from modelserve.models import SuggestionSettings
from modelserve.services.learning import learning_fit, learning_start
from tests.factories import ProjectFactory, put_suggestion_settings
from tests.modelserve.scico_lightning import tiny_encoder
from tests.modelserve.scico_topics import MT_DOCUMENTS, build_topic

pytestmark = pytest.mark.django_db
torch.set_num_threads(1)


@pytest.fixture
def models_dir(settings, tmp_path):
    folder = tmp_path / "models"
    folder.mkdir()
    settings.MODELS_DIR = folder
    settings.MODEL_PATHS_ALLOWED = []
    settings.SUGGEST_DEVICE = "cpu"
    settings.LEARN_EPOCHS = 1
    return folder.resolve()


def test_the_encoder_and_profile_are_project_settings_inside_the_allowed_folders(models_dir):
    project = ProjectFactory()

    outside = put_suggestion_settings(project, {"learn_encoder": "/etc"})
    unknown = put_suggestion_settings(project, {"learn_profile": "scico-b3"})
    chosen = put_suggestion_settings(
        project,
        {"backend": "cross-encoder", "learn_encoder": "scibert", "learn_profile": "scico-b2"},
    )

    assert outside.status_code == 422
    assert outside.json()["error"] == "model_path_refused"
    assert outside.json()["parameter"] == "learn_encoder"
    assert unknown.status_code == 400
    assert chosen.status_code == 200, chosen.json()
    assert chosen.json()["learn_encoder"] == str(models_dir / "scibert")
    assert chosen.json()["learn_profile"] == "scico-b2"
    assert learning_start(project.pk) == (str(models_dir / "scibert"), "scico-b2")
    assert put_suggestion_settings(project, {"learn_encoder": ""}).json()["learn_encoder"] == ""
    assert learning_start(project.pk) == (None, "scico-b2")  # None: the packaged MiniLM


def test_a_folder_no_longer_allowed_is_refused_when_learning_starts(models_dir, settings, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    settings.MODEL_PATHS_ALLOWED = [shared]
    project = ProjectFactory()
    put_suggestion_settings(project, {"learn_encoder": str(shared / "longformer")})
    settings.MODEL_PATHS_ALLOWED = []

    with pytest.raises(ModelPathRefused, match="learn_encoder"):
        learning_start(project.pk)
    assert SuggestionSettings.objects.get(project=project).learn_encoder


def test_learning_fine_tunes_the_chosen_encoder_by_the_chosen_profile(models_dir):
    encoder = tiny_encoder(models_dir / "scibert")
    project = ProjectFactory()
    put_suggestion_settings(
        project,
        {"backend": "cross-encoder", "learn_encoder": str(encoder), "learn_profile": "scico-b2"},
    )
    topics = [
        build_topic(MT_DOCUMENTS[:3], [("mt", "nmt"), ("mt", "smt")], external_id=f"mt-{i}")
        for i in range(3)
    ]
    start, profile = learning_start(project.pk)

    params = learning_fit("cross-encoder", train=topics, folder=models_dir / "v1",
                          progress=lambda f, m: None, encoder=start, profile=profile)  # fmt: skip

    folder = models_dir / "v1" / "model"
    assert params == {"model_path": str(folder)}
    summary = json.loads((folder / THRESHOLDS_FILE).read_text())
    assert summary["encoder"] == str(encoder)
    assert summary["hyperparameters"]["profile"] == "scico-b2"
    assert summary["hyperparameters"]["gradient_accumulation"] == 32
    assert (folder / LINEAR_FILE).is_file()
    assert json.loads((folder / "config.json").read_text())["hidden_size"] == 32  # not MiniLM
