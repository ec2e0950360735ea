"""Parameters that name a model file or folder stay inside the model folders the server allows:
MODELS_DIR and MODEL_PATHS_ALLOWED, symlinks and `..` resolved. The refusal names the parameter
and the folders, and reads the same whether the path exists or not."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from modelserve.errors import ModelPathRefused
from modelserve.models import SuggestionRun, SuggestionSettings
from modelserve.services.runs import suggestion_run_request
from modelserve.services.settings import suggestion_settings_set
from tests.factories import (
    AdminFactory,
    ProjectFactory,
    UserFactory,
    assign,
    make_topic,
    put_suggestion_settings,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def models_dir(settings, tmp_path):
    folder = tmp_path / "models"
    folder.mkdir()
    settings.MODELS_DIR = folder
    settings.MODEL_PATHS_ALLOWED = []
    return folder.resolve()


def test_a_model_path_outside_the_model_folders_is_refused_naming_the_parameter_and_folders(
    models_dir,
):
    project = ProjectFactory()

    answer = put_suggestion_settings(
        project, {"backend": "cross-encoder", "params": {"model_path": "/etc"}}
    )

    assert answer.status_code == 422
    body = answer.json()
    assert body["error"] == "model_path_refused"
    assert body["parameter"] == "model_path"
    assert body["allowed"] == [str(models_dir)]
    assert body["message"].startswith("model_path: '/etc' is not inside the model folders")
    assert str(models_dir) in body["message"]
    assert "MODEL_PATHS_ALLOWED" in body["message"]
    assert not SuggestionSettings.objects.filter(project=project).exists()


def test_the_refusal_reads_the_same_for_a_path_that_exists_and_one_that_does_not(models_dir):
    project = ProjectFactory()

    there = put_suggestion_settings(project, {"params": {"model_path": "/etc/passwd"}}).json()
    missing = put_suggestion_settings(
        project, {"params": {"model_path": "/etc/no-such-file-x"}}
    ).json()

    assert there["message"].replace("/etc/passwd", "P") == missing["message"].replace(
        "/etc/no-such-file-x", "P"
    )
    assert "exist" not in there["message"]
    assert "No such" not in there["message"]


def test_dot_dot_out_of_the_models_folder_is_refused(models_dir):
    with pytest.raises(ModelPathRefused, match="model_dir"):
        suggestion_settings_set(
            project=ProjectFactory(),
            backend="trained",
            params={"model_dir": f"{models_dir}/../../etc"},
        )


def test_a_symlink_inside_the_models_folder_that_points_outside_is_refused(models_dir, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (models_dir / "link").symlink_to(outside)

    with pytest.raises(ModelPathRefused, match="model_dir"):
        suggestion_settings_set(
            project=ProjectFactory(), backend="trained", params={"model_dir": "link"}
        )


def test_a_path_inside_the_models_folder_is_kept_resolved_and_a_relative_one_is_taken_there(
    models_dir,
):
    row = suggestion_settings_set(
        project=ProjectFactory(),
        backend="chemu",
        params={"model_dir": f"{models_dir}/chemu/../chemu/x", "mentions_dir": "tagger"},
    )

    assert row.params == {
        "model_dir": str(models_dir / "chemu" / "x"),
        "mentions_dir": str(models_dir / "tagger"),
    }


def test_a_folder_of_model_paths_allowed_is_accepted(models_dir, tmp_path, settings):
    shared = tmp_path / "shared-models"
    shared.mkdir()
    settings.MODEL_PATHS_ALLOWED = [shared]

    row = suggestion_settings_set(
        project=ProjectFactory(),
        backend="cross-encoder",
        params={"model_path": str(shared / "longformer-scico")},
    )

    assert row.params["model_path"] == str(shared.resolve() / "longformer-scico")


@pytest.mark.parametrize(
    ("backend", "params", "parameter"),
    [
        ("entailment", {"nli_model": "/etc"}, "nli_model"),
        ("minilm", {"encoder_path": "/etc/hosts"}, "encoder_path"),
        (
            "entailment",
            {"nli_model": "nli", "clusters": "minilm", "clusters_params": {"encoder_path": "/"}},
            "clusters_params.encoder_path",
        ),
        ("cross-encoder", {"model_path": ["/etc"]}, "model_path"),
        ("cross-encoder", {"model_path": ""}, "model_path"),
    ],
)
def test_every_parameter_naming_a_path_is_checked(models_dir, backend, params, parameter):
    with pytest.raises(ModelPathRefused) as refused:
        suggestion_settings_set(project=ProjectFactory(), backend=backend, params=params)

    assert refused.value.details["parameter"] == parameter


def test_null_paths_and_other_parameters_pass_as_they_are(models_dir):
    params = {"encoder_path": None, "threshold": 0.4, "context": "sentence"}

    row = suggestion_settings_set(project=ProjectFactory(), params=params)

    assert row.params == params


def test_settings_saved_before_the_check_are_refused_when_a_run_is_asked_for(models_dir):
    topic = make_topic()
    SuggestionSettings.objects.create(
        project=topic.project, backend="cross-encoder", params={"model_path": "/etc/passwd"}
    )
    user = UserFactory()
    assign(topic, user)
    client = APIClient()
    client.force_authenticate(user)

    answer = client.post(f"/api/topics/{topic.pk}/suggestion-runs/", {}, format="json")

    assert answer.status_code == 422
    assert answer.json()["error"] == "model_path_refused"
    assert not SuggestionRun.objects.exists()


def test_an_admins_run_override_goes_through_the_same_check(models_dir):
    topic = make_topic()
    admin = AdminFactory()

    with pytest.raises(ModelPathRefused, match="model_path"):
        suggestion_run_request(
            topic=topic, user=admin, backend="cross-encoder", params={"model_path": "/etc"}
        )
    run = suggestion_run_request(
        topic=topic, user=admin, backend="cross-encoder", params={"model_path": "scico"}
    )

    assert run.params["model_path"] == str(models_dir / "scico")


def test_the_packaged_minilm_default_needs_no_path_and_is_accepted(models_dir):
    from modelserve.encoders import default_encoder_path

    topic = make_topic()

    run = suggestion_run_request(topic=topic, user=UserFactory())

    assert run.backend == "minilm"
    assert not any(key.endswith(("_path", "_dir")) for key in run.params)
    assert default_encoder_path()  # the packaged model is found, wherever pip put it
