"""Models scored on a project's gold (the admin Models page, docs/models.md): the service, its
scores against the agreement report's, the API and its refusals, and the CSV. The worker's
side runs in this process here; tests/modelserve/services/test_model_evaluation_worker.py sends one
through Redis to a real Celery model worker."""

from __future__ import annotations

import csv
from io import StringIO

import pytest
from rest_framework.test import APIClient

from annotation.services.exports import annotations_export
from corefscore.formats import read
from corefscore.scoring.api import score_scico
from modelserve.models import ModelEvaluation, ModelVersion
from modelserve.scico_prediction import predict_scico
from modelserve.services.evaluations import model_evaluation_execute, model_evaluation_request
from modelserve.services.settings import suggestion_settings_set
from modelserve.training.learning import run_params
from modelserve.training.registry import train_topics
from reporting.selectors.agreement_gold import annotators_vs_gold
from tests.factories import ALICE_AND_BOB, ProjectFactory, UserFactory
from tests.paths import SCICO_DEMO

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.project(annotators=ALICE_AND_BOB),
]  # the heartbeat thread reads the row


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


def test_the_api_lists_choices_starts_reads_and_refuses(project, admin_client, settings, tmp_path):
    settings.MODELS_DIR = tmp_path
    (tmp_path / "cross-encoder").mkdir()
    (tmp_path / "cross-encoder-b2").mkdir()
    (tmp_path / "scico-nli").mkdir()
    (tmp_path / "trained" / "SciCo").mkdir(parents=True)  # where train_suggester saves

    choices = admin_client.get(f"/api/projects/{project.pk}/model-evaluation-choices/").json()

    backends = {b["name"]: b for b in choices["backends"]}
    assert "chemu" not in backends  # a SciCo project: SciCo's backends only
    assert {"edit-distance", "singleton", "cross-encoder", "entailment"} <= set(backends)
    folders = {
        name: [m["model_version"] for m in backends[name]["model_versions"]]
        for name in ("cross-encoder", "entailment", "trained")
    }
    assert folders["cross-encoder"] == ["cross-encoder", "cross-encoder-b2"]
    assert folders["entailment"] == ["scico-nli"]
    assert folders["trained"] == ["trained", "trained/SciCo"]
    assert all(m["version"] is None for m in backends["trained"]["model_versions"])
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
        refused = admin_client.post(url, body, format="json")
        assert refused.status_code == 422, body
        assert words in refused.json()["message"]
    assert (
        admin_client.post(
            url, {"backend": "singleton", "gold_source": "x"}, format="json"
        ).status_code
        == 400
    )
    assert ModelEvaluation.objects.count() == 0

    started = admin_client.post(url, {"backend": "singleton"}, format="json")
    assert started.status_code == 201, started.json()
    assert started.json()["status"] == "queued"
    assert started.json()["result"] is None
    model_evaluation_execute(evaluation_id=started.json()["id"])
    listed = admin_client.get(url).json()
    assert [(r["id"], r["status"]) for r in listed] == [(started.json()["id"], "succeeded")]
    detail = admin_client.get(f"/api/model-evaluations/{started.json()['id']}/").json()
    assert detail["result"]["overall"]["topics"] == 6

    annotator = APIClient()
    annotator.force_authenticate(UserFactory())
    assert annotator.get(url).status_code == 403
    assert annotator.post(url, {"backend": "singleton"}, format="json").status_code == 403


def test_two_runs_side_by_side_in_one_csv(project, admin_client):
    first = evaluated(project, "singleton")
    second = evaluated(project, "edit-distance")

    answer = admin_client.get(f"/api/model-evaluations/csv/?runs={first.pk},{second.pk}")

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

    assert admin_client.get("/api/model-evaluations/csv/?runs=1,2,3").status_code == 400
    assert (
        admin_client.get(f"/api/model-evaluations/csv/?runs={second.pk + 100}").status_code == 404
    )


def learnt_version(project, number: int, folder, **fields) -> ModelVersion:
    defaults = {"topics_used": 4 * number, "holdout_topics": 2, "score": 0.5, "not_worse": True}
    fields.setdefault("eligible", fields.get("not_worse", True))
    return ModelVersion.objects.create(
        project=project,
        backend=fields.pop("backend", "trained"),
        number=number,
        path=str(folder),
        params=run_params("trained", str(folder), mentions_folder=None),
        **{**defaults, **fields},
    )


@pytest.mark.training  # trains a version to score (10.6 s in the fast lane)
def test_a_learnt_version_is_listed_scored_and_recorded(project, admin_client, settings, tmp_path):
    """The model choice lists the project's learnt versions (newest first, with their facts)
    before the trained folders; an evaluation of one scores its folder and records it."""
    settings.MODELS_DIR = tmp_path
    (tmp_path / "trained" / "SciCo").mkdir(parents=True)
    folder = tmp_path / "learned" / f"project-{project.pk}" / "t1" / "model"
    train_topics(
        "trained", read("scico", SCICO_DEMO).topics, folder, epochs=1, device="cpu",
        log=lambda line: None,
    )  # fmt: skip
    first = learnt_version(project, 1, folder, score=0.61)
    worse = learnt_version(project, 2, tmp_path / "learned" / "t2", score=0.4, not_worse=False)
    other = ProjectFactory(name="another")
    elsewhere = learnt_version(other, 1, tmp_path / "learned" / "other")
    suggestion_settings_set(project=project, learn=True)

    choices = admin_client.get(f"/api/projects/{project.pk}/model-evaluation-choices/").json()

    trained = next(b for b in choices["backends"] if b["name"] == "trained")["model_versions"]
    assert [m["model_version"] for m in trained] == [
        "learned/t2",
        f"learned/project-{project.pk}/t1/model",
        "trained",
        "trained/SciCo",
    ]
    newest, served = trained[0]["version"], trained[1]["version"]
    assert (newest["id"], newest["number"], newest["serving"], newest["not_worse"]) == (
        worse.pk, 2, False, False,
    )  # fmt: skip
    assert served["serving"]  # v2 is worse: v1 still serves
    assert not served["pinned"]
    assert (served["topics_used"], served["score"], served["metric"]) == (4, 0.61, "CoNLL F1")
    assert served["backend"] == "trained"
    cross = next(b for b in choices["backends"] if b["name"] == "cross-encoder")
    assert cross["model_versions"] == []  # the versions are the trained backend's

    url = f"/api/projects/{project.pk}/model-evaluations/"
    for body, words in (
        ({"backend": "trained", "version": elsewhere.pk}, "no learnt model version"),
        ({"backend": "cross-encoder", "version": first.pk}, "score it with the trained backend"),
        ({"backend": "trained", "version": first.pk, "model_version": "trained"}, "not both"),
    ):
        refused = admin_client.post(url, body, format="json")
        assert refused.status_code == 422, body
        assert words in refused.json()["message"]
    assert ModelEvaluation.objects.count() == 0

    started = admin_client.post(url, {"backend": "trained", "version": first.pk}, format="json")
    assert started.status_code == 201, started.json()
    assert started.json()["version"] == {"id": first.pk, "number": 1}
    assert started.json()["model_version"] == f"learned/project-{project.pk}/t1/model"
    assert started.json()["params"]["model_dir"] == str(folder)
    assert model_evaluation_execute(evaluation_id=started.json()["id"]) == "succeeded"

    listed = admin_client.get(url).json()
    assert [(r["status"], r["version"]) for r in listed] == [
        ("succeeded", {"id": first.pk, "number": 1})
    ]
    evaluation = ModelEvaluation.objects.get()
    assert evaluation.version == first
    assert evaluation.result["overall"]["topics"] == 6
    csv_text = admin_client.get(
        f"/api/model-evaluations/csv/?runs={evaluation.pk}"
    ).content.decode()
    assert f"run {evaluation.pk} trained v1 model" in csv_text.splitlines()[0]
