"""Models scored on a project's gold (the admin Models page, issue 25.6): the service, its
scores against the agreement report's, the API and its refusals, and the CSV. The worker's
side runs in this process here; tests/modelserve/test_model_evaluation_worker.py sends one
through Redis to a real Celery model worker."""

from __future__ import annotations

import csv
from io import StringIO

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from annotation.domain.formats import read
from annotation.domain.scoring.api import score_scico
from annotation.selectors.agreement_gold import annotators_vs_gold
from annotation.services.exports import annotations_export
from annotation.services.imports.topics import topics_import
from modelserve.models import ModelEvaluation
from modelserve.scico_prediction import predict_scico
from modelserve.services.evaluations import model_evaluation_execute, model_evaluation_request
from tests.factories import AdminFactory, ProjectFactory, UserFactory
from tests.paths import DEMO, SCICO_DEMO

pytestmark = pytest.mark.django_db(transaction=True)  # the heartbeat thread reads the row


@pytest.fixture
def project():
    project = ProjectFactory(name="SciCo")
    topics_import(project=project, path=SCICO_DEMO, format="scico")  # with gold
    for name, letter in (("alice", "a"), ("bob", "b")):
        call_command(
            "import_annotations", "--project", "SciCo", "--user", name, "--format", "scico",
            "--create-user", "--submit", str(DEMO / f"scico_demo_annotator_{letter}.jsonl"),
            stdout=StringIO(),
        )  # fmt: skip
    return project


@pytest.fixture
def admin():
    client = APIClient()
    client.force_authenticate(AdminFactory())
    return client


def evaluated(project, backend: str, **options) -> ModelEvaluation:
    evaluation = model_evaluation_request(
        project=project, user=UserFactory(), backend=backend, **options
    )
    assert model_evaluation_execute(evaluation_id=evaluation.pk) == "succeeded"
    evaluation.refresh_from_db()
    return evaluation


def test_the_model_is_scored_as_the_scorer_scores_its_predictions(project, tmp_path):
    """The evaluation's overall scores are the scorer's on the backend's predictions of the
    exported gold, and the annotators' AVG is the mean of the report's annotator-vs-gold F1."""
    annotations_export(project=project, format="scico", out=tmp_path / "gold.jsonl", source="gold")
    gold = read("scico", tmp_path / "gold.jsonl").topics
    expected = score_scico(gold, predict_scico("edit-distance", gold, {}))
    vs_gold = annotators_vs_gold(project)

    evaluation = evaluated(project, "edit-distance")

    result = evaluation.result
    assert evaluation.status == "succeeded"
    assert result["overall"]["topics"] == 6
    assert len(result["topics"]) == 6
    model = result["overall"]["model"]
    assert model["conll_f1"]["score"] == pytest.approx(expected["conll_f1"])
    assert model["muc_f1"]["score"] == pytest.approx(expected["muc"]["f1"])
    assert model["hierarchy_f1"]["score"] == pytest.approx(expected["hierarchy"]["f1"])
    assert model["path_ratio"]["score"] == pytest.approx(expected["path_ratio"]["micro"])
    low, high = model["conll_f1"]["ci"]
    assert low <= model["conll_f1"]["score"] <= high
    assert low < high
    shared = result["shared"]
    assert shared["annotators"] == ["alice", "bob"]
    assert shared["topics"] == 6
    avg = sum(row["scores"]["muc"]["f1"] for row in vs_gold["annotators"]) / 2
    assert shared["annotators_avg"]["muc_f1"]["score"] == pytest.approx(avg)
    assert shared["annotators_avg"]["muc_f1"]["ci"] is not None
    assert result["topics"][0]["annotator_count"] == 2


def test_the_singleton_baseline_scores_below_the_annotators(project):
    evaluation = evaluated(project, "singleton")

    shared = evaluation.result["shared"]
    assert shared["model"]["conll_f1"]["score"] < shared["annotators_avg"]["conll_f1"]["score"]
    assert shared["model"]["hierarchy_f1"]["score"] == 0.0  # no relations at all
    # each topic: every mention alone gives MUC 0 (no link to find right)
    assert all(row["model"]["muc_f1"] == 0.0 for row in evaluation.result["topics"])


def test_imported_gold_and_adjudications_are_separate_sources(project):
    with pytest.raises(Exception, match="No topic of this project has that gold"):
        model_evaluation_request(
            project=project, user=UserFactory(), backend="singleton", gold_source="adjudicated"
        )
    assert evaluated(project, "singleton", gold_source="imported").result["overall"]["topics"] == 6
    assert ModelEvaluation.objects.count() == 1


def test_a_failing_model_fails_the_evaluation_with_its_message(project, settings, tmp_path):
    settings.MODELS_DIR = tmp_path
    evaluation = model_evaluation_request(
        project=project, user=UserFactory(), backend="cross-encoder", model_version="missing"
    )
    assert "failed" in model_evaluation_execute(evaluation_id=evaluation.pk)
    evaluation.refresh_from_db()
    assert evaluation.status == "failed"
    assert evaluation.message
    assert evaluation.error
    assert evaluation.params["model_path"] == str(tmp_path / "missing")


def test_a_finished_evaluation_is_not_run_again(project):
    evaluation = evaluated(project, "singleton")
    assert model_evaluation_execute(evaluation_id=evaluation.pk).startswith("skipped")


def test_the_api_lists_choices_starts_reads_and_refuses(project, admin, settings, tmp_path):
    settings.MODELS_DIR = tmp_path
    (tmp_path / "cross-encoder").mkdir()
    (tmp_path / "cross-encoder-b2").mkdir()
    (tmp_path / "scico-nli").mkdir()
    (tmp_path / "trained" / "SciCo").mkdir(parents=True)  # where train_suggester saves

    choices = admin.get(f"/api/projects/{project.pk}/model-evaluation-choices/").json()

    backends = {b["name"]: b for b in choices["backends"]}
    assert "chemu" not in backends  # a SciCo project: SciCo's backends only
    assert {"edit-distance", "singleton", "cross-encoder", "entailment"} <= set(backends)
    assert backends["cross-encoder"]["model_versions"] == ["cross-encoder", "cross-encoder-b2"]
    assert backends["entailment"]["model_versions"] == ["scico-nli"]
    assert backends["trained"]["model_versions"] == ["trained", "trained/SciCo"]
    assert backends["singleton"] == {
        "name": "singleton",
        "takes_model": False,
        "model_versions": [],
    }
    topics = {g["gold_source"]: g["topics"] for g in choices["gold_sources"]}
    assert topics == {"gold": 6, "adjudicated": 0, "imported": 6}

    url = f"/api/projects/{project.pk}/model-evaluations/"
    for body, words in (
        ({"backend": "chemu"}, "does not predict"),
        ({"backend": "singleton", "gold_source": "adjudicated"}, "No topic"),
        ({"backend": "singleton", "model_version": "x"}, "no trained model"),
        ({"backend": "cross-encoder", "model_version": "/etc"}, "not inside the model folders"),
    ):
        refused = admin.post(url, body, format="json")
        assert refused.status_code == 422, body
        assert words in refused.json()["message"]
    assert (
        admin.post(url, {"backend": "singleton", "gold_source": "x"}, format="json").status_code
        == 400
    )
    assert ModelEvaluation.objects.count() == 0

    started = admin.post(url, {"backend": "singleton"}, format="json")
    assert started.status_code == 201, started.json()
    assert started.json()["status"] == "queued"
    assert started.json()["result"] is None
    model_evaluation_execute(evaluation_id=started.json()["id"])
    listed = admin.get(url).json()
    assert [(r["id"], r["status"]) for r in listed] == [(started.json()["id"], "succeeded")]
    detail = admin.get(f"/api/model-evaluations/{started.json()['id']}/").json()
    assert detail["result"]["overall"]["topics"] == 6

    annotator = APIClient()
    annotator.force_authenticate(UserFactory())
    assert annotator.get(url).status_code == 403
    assert annotator.post(url, {"backend": "singleton"}, format="json").status_code == 403


def test_two_runs_side_by_side_in_one_csv(project, admin):
    first = evaluated(project, "singleton")
    second = evaluated(project, "edit-distance")

    answer = admin.get(f"/api/model-evaluations/csv/?runs={first.pk},{second.pk}")

    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(StringIO(answer.content.decode())))
    one, two = f"run {first.pk} singleton", f"run {second.pk} edit-distance"
    conll = next(r for r in rows if r["scope"] == "shared" and r["metric"] == "conll_f1")
    shared = [first.result["shared"], second.result["shared"]]
    assert float(conll[f"{one} model"]) == shared[0]["model"]["conll_f1"]["score"]
    assert float(conll[f"{two} model"]) == shared[1]["model"]["conll_f1"]["score"]
    assert float(conll[f"{two} model ci low"]) == shared[1]["model"]["conll_f1"]["ci"][0]
    assert conll[f"{one} annotators avg"] == conll[f"{two} annotators avg"] != ""
    topic = first.result["topics"][2]["topic"]
    muc = next(
        r for r in rows if r["scope"] == "topic" and r["topic"] == topic and r["metric"] == "muc_f1"
    )
    assert float(muc[f"{two} model"]) == second.result["topics"][2]["model"]["muc_f1"]
    assert len([r for r in rows if r["scope"] == "topic"]) == 6 * len(first.result["metrics"])

    assert admin.get("/api/model-evaluations/csv/?runs=1,2,3").status_code == 400
    assert admin.get(f"/api/model-evaluations/csv/?runs={second.pk + 100}").status_code == 404
