"""Every backend declares its parameters (modelserve/backends/parameters.py). The walk below
takes each backend of the registry and each parameter of its schema: a path parameter is
refused outside the allowed model folders wherever parameters come in (the settings, a run,
an evaluation), whatever it is called; every other parameter refuses a path-like text; a
parameter no schema declares is refused with a JSON 400 that names it, and nothing is written.
(Paths used to be recognised by their name, `*_path` / `*_dir`: the entailment backend's
`nli_model` let `/etc` through to the model worker.)"""

from __future__ import annotations

import pytest

from annotation.services.imports.topics import topics_import
from modelserve.backends import BACKENDS, backend_class
from modelserve.backends.parameters import PARAMS, PATH, SCHEMAS, ParameterError
from modelserve.errors import ModelPathRefused, ParameterRefused
from modelserve.models import ModelEvaluation, SuggestionRun, SuggestionSettings
from modelserve.services.evaluations import model_evaluation_request
from modelserve.services.runs import suggestion_run_request
from tests.factories import AdminFactory, ProjectFactory, make_topic, put_suggestion_settings
from tests.paths import SCICO_DEMO

pytestmark = pytest.mark.django_db

OUTSIDE = "/etc"


@pytest.fixture
def models_dir(settings, tmp_path):
    folder = tmp_path / "models"
    folder.mkdir()
    settings.MODELS_DIR = folder
    settings.MODEL_PATHS_ALLOWED = []
    return folder.resolve()


def path_cases() -> list[tuple[str, dict, str]]:
    """(backend, params, the parameter as the refusal names it): every path parameter of
    every schema set to /etc, and every path of every backend the entailment backend can
    cluster with, inside its clusters_params."""
    cases = []
    for backend, schema in SCHEMAS.items():
        for name, parameter in schema.items():
            if parameter.kind == PATH:
                cases.append((backend, {name: OUTSIDE}, name))
            if parameter.kind == PARAMS:
                for inner, inner_schema in SCHEMAS.items():
                    for inner_name, p in inner_schema.items():
                        if inner != backend and p.kind == PATH:
                            nested = {parameter.backend_from: inner, name: {inner_name: OUTSIDE}}
                            cases.append((backend, nested, f"{name}.{inner_name}"))
    return cases


def other_cases() -> list[tuple[str, str]]:
    return [
        (backend, name)
        for backend, schema in SCHEMAS.items()
        for name, parameter in schema.items()
        if parameter.kind not in (PATH, PARAMS)
    ]


def test_every_backend_of_the_registry_has_a_schema_and_takes_nothing_else():
    assert set(SCHEMAS) == set(BACKENDS)
    for backend in BACKENDS:
        # refused before any model is loaded
        with pytest.raises(ParameterError, match="no parameter"):
            backend_class(backend)({"surely_not_a_parameter": 1})


def test_the_decodings_declared_are_the_decoders():
    from modelserve.backends import scico_decoding

    assert SCHEMAS["cross-encoder"]["decoding"].choices == scico_decoding.DECODINGS
    assert SCHEMAS["trained"]["decoding"].choices == (*scico_decoding.DECODINGS, "legacy")


def test_the_walk_covers_every_path_parameter_and_the_entailment_models():
    cases = {(backend, parameter) for backend, _, parameter in path_cases()}

    assert ("entailment", "nli_model") in cases  # the finding: named neither *_path nor *_dir
    assert ("entailment", "clusters_params.model_dir") in cases
    assert len(cases) >= 9


@pytest.mark.parametrize(("backend", "params", "parameter"), path_cases())
def test_every_path_parameter_is_refused_outside_the_allowed_folders(
    models_dir, backend, params, parameter
):
    project = ProjectFactory()

    answer = put_suggestion_settings(project, {"backend": backend, "params": params})

    assert answer.status_code == 422, answer.json()
    assert answer.json()["error"] == "model_path_refused"
    assert answer.json()["parameter"] == parameter
    assert not SuggestionSettings.objects.filter(project=project).exists()
    with pytest.raises(ModelPathRefused):
        suggestion_run_request(
            topic=make_topic(project=project), user=None, backend=backend, params=params
        )
    assert not SuggestionRun.objects.exists()


@pytest.mark.parametrize(("backend", "params", "parameter"), path_cases())
def test_every_path_parameter_inside_the_models_folder_is_accepted_resolved(
    models_dir, backend, params, parameter
):
    inside = {k: ({n: "m" for n in v} if isinstance(v, dict) else v) for k, v in params.items()}
    inside = {k: ("m" if v == OUTSIDE else v) for k, v in inside.items()}

    answer = put_suggestion_settings(ProjectFactory(), {"backend": backend, "params": inside})

    assert answer.status_code == 200, answer.json()
    saved = answer.json()["params"]
    value = saved[parameter.split(".")[0]]
    if "." in parameter:
        value = value[parameter.split(".")[1]]
    assert value == str(models_dir / "m")


@pytest.mark.parametrize(("backend", "parameter"), other_cases())
def test_every_other_parameter_refuses_a_path(models_dir, backend, parameter):
    """No parameter takes free text: one that names a file is declared a path, or the walk
    above would not see it."""
    answer = put_suggestion_settings(
        ProjectFactory(), {"backend": backend, "params": {parameter: OUTSIDE}}
    )

    assert answer.status_code == 400, answer.json()
    assert answer.json()["error"] == "parameter_refused"
    assert answer.json()["parameter"] == parameter


@pytest.mark.parametrize("backend", sorted(SCHEMAS))
def test_a_parameter_the_schema_does_not_know_is_refused_with_a_400_naming_it(models_dir, backend):
    project = ProjectFactory()

    answer = put_suggestion_settings(
        project, {"backend": backend, "params": {"tokenizer_dir": "x"}}
    )

    assert answer.status_code == 400
    body = answer.json()
    assert body["error"] == "parameter_refused"
    assert body["parameter"] == "tokenizer_dir"
    assert body["message"].startswith(f'The {backend} backend has no parameter "tokenizer_dir".')
    assert all(name in body["message"] for name in SCHEMAS[backend])  # what it does take
    assert not SuggestionSettings.objects.filter(project=project).exists()


def test_unknown_parameters_are_refused_in_runs_and_evaluations_too(models_dir):
    project = ProjectFactory()
    topics_import(project=project, path=SCICO_DEMO, format="scico")  # with gold
    topic = project.topics.first()

    with pytest.raises(ParameterRefused, match="threshold_x"):
        suggestion_run_request(topic=topic, user=None, params={"threshold_x": 1})
    with pytest.raises(ParameterRefused, match=r'no parameter "seed" \(in clusters_params\)') as e:
        model_evaluation_request(
            project=project,
            user=AdminFactory(),
            backend="entailment",
            params={"nli_model": "nli", "clusters_params": {"seed": 1}},  # not edit-distance's
        )
    assert e.value.details["parameter"] == "clusters_params.seed"
    with pytest.raises(ModelPathRefused, match="nli_model"):
        model_evaluation_request(
            project=project, user=AdminFactory(), backend="entailment", params={"nli_model": "/"}
        )
    assert not SuggestionRun.objects.exists()
    assert not ModelEvaluation.objects.exists()


def test_a_new_backend_must_suit_the_parameters_kept(models_dir):
    project = ProjectFactory()
    assert (
        put_suggestion_settings(
            project, {"backend": "minilm", "params": {"threshold": 0.5}}
        ).status_code
        == 200
    )

    answer = put_suggestion_settings(project, {"backend": "edit-distance"})

    assert answer.status_code == 400
    assert answer.json()["parameter"] == "threshold"
    assert SuggestionSettings.objects.get(project=project).backend == "minilm"


def test_a_run_of_another_backend_takes_only_the_project_parameters_it_declares(models_dir):
    project = ProjectFactory()
    put_suggestion_settings(
        project, {"backend": "minilm", "params": {"threshold": 0.5, "batch_size": 8}}
    )

    run = suggestion_run_request(
        topic=make_topic(project=project), user=None, backend="cross-encoder",
        params={"model_path": "scico"},
    )  # fmt: skip

    assert run.params == {
        "batch_size": 8,
        "model_path": str(models_dir / "scico"),
        "single_parent": project.single_parent,
    }


def test_values_of_the_wrong_kind_are_refused_in_words(models_dir):
    cases = [
        ({"threshold": "high"}, 'threshold must be a number, not "high".'),
        ({"batch_size": 0}, "batch_size must be at least 1."),
        ({"context": "page"}, 'context must be one of document, sentence, not "page".'),
        ({"single_parent": "yes"}, 'single_parent must be true or false, not "yes".'),
        ({"device": "/dev/sda"}, 'device must be auto, cpu, cuda, cuda:N or mps, not "/dev/sda".'),
    ]
    for params, message in cases:
        answer = put_suggestion_settings(ProjectFactory(), {"backend": "minilm", "params": params})
        assert answer.status_code == 400
        assert answer.json()["message"] == message
