"""No score on training data (docs/models.md, "Models scored in the app"): the Models page
leaves out the topics a compared model was trained on (a learnt version's training topics,
the texts a default model records), scores and marks them only when asked, and refuses when
no unseen topic is left; a default model's training texts are flagged on the Suggestions
page too. The worker's side runs in this process (model_evaluation_execute)."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings

from annotation.models import Project
from annotation.services.imports.topics import topics_import
from corefscore.formats import read, write
from modelserve.models import ModelEvaluation, ModelVersion
from modelserve.services.default_models import chemu_trained_texts_record
from modelserve.services.evaluations import model_evaluation_execute
from tests.factories import ProjectFactory
from tests.paths import CHEMU_TRAIN, SCICO_DEMO

pytestmark = pytest.mark.django_db(transaction=True)  # the heartbeat thread reads the row


@pytest.fixture
def scico(settings, tmp_path):
    settings.MODELS_DIR = tmp_path
    project = ProjectFactory(name="SciCo")
    topics_import(project=project, path=SCICO_DEMO, format="scico")  # with gold
    return project


def trained_on(project, external_ids: list[str]) -> ModelVersion:
    folder = str(django_settings.MODELS_DIR / "learned" / "t1")
    ids = list(project.topics.filter(external_id__in=external_ids).values_list("pk", flat=True))
    return ModelVersion.objects.create(
        project=project,
        backend="trained",
        number=1,
        path=folder,
        params={"model_dir": folder},
        topics_used=len(ids),
        trained_topics=ids,
    )


def started(admin_client, project, **body):
    answer = admin_client.post(
        f"/api/projects/{project.pk}/model-evaluations/",
        {"backend": "singleton", **body},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert model_evaluation_execute(evaluation_id=answer.json()["id"]) == "succeeded"
    return admin_client.get(f"/api/model-evaluations/{answer.json()['id']}/").json()


def test_topics_a_version_was_trained_on_are_left_out_by_default_and_marked_when_asked(
    admin_client, scico
):
    trained_on(scico, ["9001", "9003"])

    choices = admin_client.get(f"/api/projects/{scico.pk}/model-evaluation-choices/").json()
    assert [(t["topic"], t["seen_by"]) for t in choices["seen"]] == [
        ("9001", ["version 1"]),
        ("9003", ["version 1"]),
    ]

    unseen = started(admin_client, scico)
    result = unseen["result"]
    assert result["overall"]["topics"] == 4
    assert "9001" not in {row["topic"] for row in result["topics"]}
    assert result["left_out"] == [
        {"topic": "9001", "seen_by": ["version 1"]},
        {"topic": "9003", "seen_by": ["version 1"]},
    ]
    assert result["trained_on_scored"] == 0

    marked = started(admin_client, scico, include_trained=True)
    result = marked["result"]
    assert marked["include_trained"] is True
    assert result["overall"]["topics"] == 6
    assert {row["topic"]: row["seen_by"] for row in result["topics"] if row["seen_by"]} == {
        "9001": ["version 1"],
        "9003": ["version 1"],
    }
    assert (result["left_out"], result["trained_on_scored"]) == ([], 2)


def test_no_unseen_topic_left_is_refused_unless_they_are_asked_for(admin_client, scico):
    trained_on(scico, list(scico.topics.values_list("external_id", flat=True)))

    refused = admin_client.post(
        f"/api/projects/{scico.pk}/model-evaluations/", {"backend": "singleton"}, format="json"
    )

    assert refused.status_code == 422
    assert refused.json()["message"].startswith(
        "A model compared here was trained on every one of the 6 gold topics (version 1)"
    )
    assert not ModelEvaluation.objects.exists()
    assert started(admin_client, scico, include_trained=True)["result"]["trained_on_scored"] == 6


def test_snippets_the_default_chemu_model_was_trained_on_are_flagged_and_left_out(
    admin_client, settings, tmp_path
):
    settings.MODELS_DIR = tmp_path
    snippets = read("chemu", CHEMU_TRAIN, skip_invalid=True).topics
    trained, fresh = tmp_path / "trained.jsonlines", tmp_path / "project.jsonlines"
    write("chemu", snippets[:2], trained)  # what the default model learnt from
    write("chemu", snippets[:3], fresh)  # the lab imports two of those and one more
    chemu_trained_texts_record(tmp_path / "chemu", train_file=trained)
    project = Project.objects.create(name="chemistry", anaphora=True, hierarchy=False)
    topics_import(project=project, path=fresh, format="chemu")
    names = [t.external_id for t in snippets[:3]]
    flag = ["the default ChEMU model"]

    choices = admin_client.get(f"/api/projects/{project.pk}/model-evaluation-choices/").json()
    versions = admin_client.get(f"/api/projects/{project.pk}/model-versions/").json()

    assert [(t["topic"], t["seen_by"]) for t in choices["seen"]] == [
        (names[0], flag),
        (names[1], flag),
    ]
    assert [t["topic"] for t in versions["default_trained_texts"]] == names[:2]
    assert versions["default_trained_texts"][0]["seen_by"] == flag
    evaluation = admin_client.post(
        f"/api/projects/{project.pk}/model-evaluations/", {"backend": "chemu"}, format="json"
    ).json()
    assert ModelEvaluation.objects.get(pk=evaluation["id"]).seen_topics == {
        str(t.pk): flag for t in project.topics.filter(external_id__in=names[:2])
    }


def test_a_default_chemu_model_trained_before_its_record_gets_one_at_the_next_start(
    settings, tmp_path
):
    from modelserve.services.default_models import link_model_ensure
    from modelserve.trained_texts import document_hash, trained_texts_read
    from modelserve.training.registry import train_topics

    settings.MODELS_DIR = tmp_path
    settings.CHEMU_TRAIN_FILE = tmp_path / "train.jsonlines"
    snippets = read("chemu", CHEMU_TRAIN, skip_invalid=True).topics[:5]
    write("chemu", snippets, settings.CHEMU_TRAIN_FILE)
    train_topics(
        "chemu", snippets, tmp_path / "chemu", holdout=0.0, epochs=1, device="cpu",
        log=lambda line: None,
    )  # fmt: skip
    assert trained_texts_read(tmp_path / "chemu") is None

    assert link_model_ensure() == []  # trained already: nothing trained again

    model, hashes = trained_texts_read(tmp_path / "chemu")
    assert model == "the default ChEMU model"
    assert hashes == {document_hash(d.tokens) for t in snippets for d in t.documents}
