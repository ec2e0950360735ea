"""A project's learnt model versions through the API (docs/learning.md): the learn setting,
the list with its serving version, rollback and roll forward, and when a submission starts a
retraining (debounced, one per project at a time). No model worker: the runs and trainings
are only queued here; tests/modelserve/test_learning_worker.py trains for real."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from rest_framework.test import APIClient

from annotation.services.assignments import assignment_submit
from modelserve.models import ModelTraining, ModelVersion
from modelserve.services.runs import suggestion_run_request
from modelserve.services.settings import suggestion_settings_set
from tests.factories import ProjectFactory, UserFactory, assign, make_topic

pytestmark = pytest.mark.django_db(transaction=True)


def version(
    project,
    number: int,
    *,
    not_worse: bool = True,
    score: float | None = 0.5,
    eligible: bool | None = None,
    reason: str = "",
):
    folder = str(django_settings.MODELS_DIR / "learned" / f"project-{project.pk}" / f"v{number}")
    return ModelVersion.objects.create(
        project=project,
        backend="trained",
        number=number,
        path=folder,
        params={"model_dir": folder},
        topics_used=10 * number,
        holdout_topics=3,
        scores={"conll_f1": score} if score is not None else None,
        score=score,
        not_worse=not_worse,
        eligible=not_worse if eligible is None else eligible,
        eligibility=reason,
    )


def test_an_admin_turns_learning_on_in_the_suggestion_settings(admin_client):
    project = ProjectFactory()
    url = f"/api/projects/{project.pk}/suggestion-settings/"

    answer = admin_client.put(url, {"learn": True}, format="json")

    assert answer.status_code == 200
    assert answer.json()["learn"] is True
    assert admin_client.get(url).json()["learn"] is True
    assert admin_client.get(f"/api/projects/{project.pk}/model-versions/").json()["learn"]


def test_the_versions_list_says_which_serves_and_a_worse_one_does_not(admin_client):
    project = ProjectFactory()
    suggestion_settings_set(project=project, learn=True)
    first, second = version(project, 1), version(project, 2)
    version(project, 3, not_worse=False, score=0.4)

    body = admin_client.get(f"/api/projects/{project.pk}/model-versions/").json()

    assert [v["number"] for v in body["versions"]] == [1, 2, 3]
    assert [v["topics_used"] for v in body["versions"]] == [10, 20, 30]
    assert body["serving"] == second.pk
    assert body["pinned"] is None
    assert body["metrics"]["trained"] == "CoNLL F1"
    assert first.pk != body["serving"]


def test_rolling_back_and_forward_changes_the_model_later_runs_use(services, admin_client):
    project = ProjectFactory(hierarchy=True)
    suggestion_settings_set(project=project, learn=True)
    first, second = version(project, 1), version(project, 2)
    topic = make_topic(project)
    url = f"/api/projects/{project.pk}/model-versions/pinned/"

    back = admin_client.put(url, {"version": first.pk}, format="json")
    run = suggestion_run_request(topic=topic, user=UserFactory())

    assert back.status_code == 200
    assert back.json()["serving"] == first.pk
    assert back.json()["pinned"] == first.pk
    assert (run.backend, run.params["model_dir"]) == ("trained", first.params["model_dir"])

    forward = admin_client.put(url, {"version": None}, format="json")
    run = suggestion_run_request(topic=topic, user=UserFactory())

    assert forward.json()["serving"] == second.pk
    assert forward.json()["pinned"] is None
    assert run.params["model_dir"] == second.params["model_dir"]


def test_a_version_that_is_not_eligible_leaves_the_base_model_serving_and_says_why(
    services, admin_client
):
    project = ProjectFactory(hierarchy=True)
    suggestion_settings_set(project=project, learn=True)
    only = version(
        project, 1, eligible=False, reason="0 held-out topics, not eligible (at least 10 needed)"
    )

    body = admin_client.get(f"/api/projects/{project.pk}/model-versions/").json()
    run = suggestion_run_request(topic=make_topic(project), user=UserFactory())

    assert body["serving"] is None
    assert body["base_backend"] == "minilm"
    assert body["versions"][0]["eligibility"] == only.eligibility
    assert body["versions"][0]["eligible"] is False
    assert run.backend == "minilm"
    assert "model_dir" not in run.params


def test_an_admin_serves_the_base_model_beside_an_eligible_version_and_returns_to_auto(
    services, admin_client
):
    project = ProjectFactory(hierarchy=True)
    suggestion_settings_set(project=project, learn=True)
    learnt = version(project, 1)
    topic = make_topic(project)
    url = f"/api/projects/{project.pk}/model-versions/pinned/"

    base = admin_client.put(url, {"version": None, "base": True}, format="json")
    run = suggestion_run_request(topic=topic, user=UserFactory())

    assert base.status_code == 200
    assert (base.json()["serving"], base.json()["base_chosen"]) == (None, True)
    assert run.backend == "minilm"

    auto = admin_client.put(url, {"version": None}, format="json")
    run = suggestion_run_request(topic=topic, user=UserFactory())

    assert (auto.json()["serving"], auto.json()["base_chosen"]) == (learnt.pk, False)
    assert run.params["model_dir"] == learnt.params["model_dir"]


def test_choosing_a_version_and_the_base_model_at_once_is_refused(admin_client):
    project = ProjectFactory()
    learnt = version(project, 1)

    answer = admin_client.put(
        f"/api/projects/{project.pk}/model-versions/pinned/",
        {"version": learnt.pk, "base": True},
        format="json",
    )

    assert answer.status_code == 422
    assert answer.json()["message"] == "Choose a version or the base model, not both."
    state = admin_client.get(f"/api/projects/{project.pk}/model-versions/").json()
    assert (state["pinned"], state["base_chosen"]) == (None, False)


def test_a_project_that_does_not_learn_keeps_its_configured_backend(services):
    project = ProjectFactory(hierarchy=True)
    version(project, 1)  # learnt once, then learning was turned off
    run = suggestion_run_request(topic=make_topic(project), user=UserFactory())

    assert run.backend != "trained"
    assert "model_dir" not in run.params


def test_pinning_another_projects_version_is_refused_with_a_message_and_changes_nothing(
    admin_client,
):
    project, other = ProjectFactory(), ProjectFactory()
    foreign = version(other, 1)

    answer = admin_client.put(
        f"/api/projects/{project.pk}/model-versions/pinned/", {"version": foreign.pk}, format="json"
    )

    assert answer.status_code == 422
    assert "no model version" in answer.json()["message"]
    assert admin_client.get(f"/api/projects/{project.pk}/model-versions/").json()["pinned"] is None


def test_an_annotator_cannot_see_or_pin_versions():
    project = ProjectFactory()
    client = APIClient()
    client.force_authenticate(UserFactory())

    assert client.get(f"/api/projects/{project.pk}/model-versions/").status_code == 403
    pin = client.put(f"/api/projects/{project.pk}/model-versions/pinned/", {}, format="json")
    assert pin.status_code == 403


def test_a_retraining_waits_for_k_submissions_and_one_runs_per_project_at_a_time(
    services, settings
):
    settings.LEARN_EVERY_SUBMISSIONS = 2
    settings.LEARN_WAIT_SECONDS = 3600
    project = ProjectFactory(hierarchy=False, anaphora=True)
    suggestion_settings_set(project=project, learn=True)
    users = [UserFactory() for _ in range(3)]
    assignments = [assign(make_topic(project), user)[0] for user in users]

    assignment_submit(assignment_id=assignments[0].pk, user=users[0])
    assert not ModelTraining.objects.filter(project=project).exists()

    assignment_submit(assignment_id=assignments[1].pk, user=users[1])
    assert ModelTraining.objects.filter(project=project, status="queued").count() == 1

    assignment_submit(assignment_id=assignments[2].pk, user=users[2])
    assert ModelTraining.objects.filter(project=project).count() == 1


def test_a_submission_in_a_project_that_does_not_learn_trains_nothing(services, settings):
    settings.LEARN_EVERY_SUBMISSIONS = 1
    project = ProjectFactory(hierarchy=False, anaphora=True)
    user = UserFactory()
    assignment, _ = assign(make_topic(project), user)

    assignment_submit(assignment_id=assignment.pk, user=user)

    assert not ModelTraining.objects.filter(project=project).exists()


def test_a_lone_submission_is_learnt_from_once_it_has_waited_the_window(services, settings):
    from datetime import timedelta

    from django.utils import timezone

    from modelserve.services.learning import learning_due_request, learning_request

    settings.LEARN_EVERY_SUBMISSIONS = 5
    settings.LEARN_WAIT_SECONDS = 600
    project = ProjectFactory(hierarchy=False, anaphora=True)
    suggestion_settings_set(project=project, learn=True)
    user = UserFactory()
    assignment, _ = assign(make_topic(project), user)
    assignment_submit(assignment_id=assignment.pk, user=user)

    assert learning_due_request() == []  # what the sweeper finds now: not due yet
    later = timezone.now() + timedelta(seconds=601)
    training = learning_request(project_id=project.pk, now=later)

    assert training is not None
    assert training.status == "queued"
    assert learning_request(project_id=project.pk, now=later) is None  # one at a time
