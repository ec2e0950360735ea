"""Models scored on a project's gold (the admin Models page): request an evaluation (the web
server), execute it (the model worker, from the backend's queue: modelserve/queues.py,
through modelserve.tasks).

An evaluation predicts every topic of the chosen gold with the chosen backend and model
version, given the gold's mentions, and scores it with the agreement report's functions next
to the annotators' submitted work on the same topics (modelserve/model_scores.py). A job
(foundation/jobs/lifecycle.py): a finished one is left alone, one with a fresh heartbeat
belongs to a live worker, a stale one is taken over, and only the owner writes its result,
once, at the end.
"""

from __future__ import annotations

import logging
import time
import traceback
from dataclasses import replace
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import close_old_connections, transaction

from annotation.models import Annotation, Project
from annotation.selectors.topic_data import annotations_topic_data, document_token_counts
from corefscore.scoring import api
from foundation.jobs import lifecycle
from foundation.side_effects import after_commit
from modelserve import model_scores
from modelserve.backends import get_backend
from modelserve.errors import EvaluationRefused
from modelserve.evaluation_seen import seen_topics
from modelserve.evaluation_selectors import backends_for, gold_for, models_relative, project_version
from modelserve.model_scores import MODEL_PARAMETER, ON_A_DEVICE
from modelserve.model_store import models_local_for
from modelserve.models import ModelEvaluation, ModelVersion
from modelserve.queues import backend_queue
from modelserve.services.settings import backend_params_checked, model_path_checked

logger = logging.getLogger(__name__)

EVALUATE_TASK = "modelserve.tasks.evaluate_model"
ACTIVE = (ModelEvaluation.Status.QUEUED, ModelEvaluation.Status.RUNNING)


def evaluation_task_send(evaluation_id: int, *, backend: str) -> None:
    """Queue the evaluation in its backend's queue (modelserve/queues.py), where the workers
    that serve that model are; a broker that fails fails it with the reason (send_or_fail)."""
    lifecycle.send_or_fail(
        ModelEvaluation,
        evaluation_id,
        lambda: current_app.send_task(
            EVALUATE_TASK,
            kwargs={"evaluation_id": evaluation_id},
            queue=backend_queue(backend),
            ignore_result=True,
        ),
    )


def model_evaluation_request(
    *,
    project: Project,
    user,
    backend: str,
    gold_source: str = ModelEvaluation.Gold.GOLD,
    model_version: str = "",
    version: int | None = None,
    params: dict[str, Any] | None = None,
    include_trained: bool = False,
) -> ModelEvaluation:
    """Queue an evaluation of the backend's own model, a trained folder (`model_version`) or
    one of the project's learnt versions (`version`, its id: the evaluation records it);
    refused (nothing written) for a backend that does not predict the project's scheme, a
    gold source with no topic, a model folder outside the allowed ones, or a version that is
    not this project's or not the backend's, or when a model compared here was trained on
    every gold topic and `include_trained` does not ask to score them anyway (marked)."""
    if backend not in backends_for(project):
        raise EvaluationRefused(
            f"The {backend!r} backend does not predict what this project annotates; choose "
            f"one of {', '.join(backends_for(project)) or 'none'}."
        )
    if gold_source not in ModelEvaluation.Gold.values:
        raise EvaluationRefused(
            f"Unknown gold source {gold_source!r}; choose one of "
            f"{', '.join(ModelEvaluation.Gold.values)}."
        )
    gold = gold_for(project, gold_source)
    if not gold:
        raise EvaluationRefused(
            "No topic of this project has that gold yet: submit an adjudication, or import "
            "topics with their gold."
        )
    params = dict(params or {})
    learnt = None
    if version is not None:
        learnt = _learnt_version(project, backend, version, model_version)
        params.update(learnt.params)  # its folders, as runs use them
        model_version = models_relative(learnt.path)
    elif model_version:
        if backend not in MODEL_PARAMETER:
            raise EvaluationRefused(f"The {backend} backend has no trained model to choose.")
        # checked as any model path (inside the allowed folders), whatever the parameter's name
        model_version = model_path_checked("model_path", value=model_version)
        params[MODEL_PARAMETER[backend]] = model_version
    params = backend_params_checked(backend, params=params)
    folder = params.get(MODEL_PARAMETER.get(backend, ""), "") if learnt is None else ""
    seen = {t: who for t, who in seen_topics(project.pk, folder=folder).items() if t in gold}
    if len(seen) == len(gold) and not include_trained:
        who = sorted({name for names in seen.values() for name in names})
        raise EvaluationRefused(
            f"A model compared here was trained on every one of the {len(gold)} gold topics "
            f"({', '.join(who)}), so no score would be on unseen text. Include the topics a "
            "model was trained on to score them anyway: they are marked in red."
        )
    with transaction.atomic():
        evaluation = ModelEvaluation.objects.create(
            project=project,
            backend=backend,
            model_version=model_version,
            version=learnt,
            params=params,
            gold_source=gold_source,
            seen_topics={str(t): who for t, who in seen.items()},
            include_trained=include_trained,
            requested_by=user,
            message="waiting for a model worker",
        )
        after_commit(evaluation_task_send, evaluation.pk, backend=evaluation.backend)
    return evaluation


def _learnt_version(project: Project, backend: str, version: int, folder: str) -> ModelVersion:
    if folder:
        raise EvaluationRefused("Choose a learnt version or a model folder, not both.")
    learnt = project_version(project, version)
    if learnt is None:
        raise EvaluationRefused(f"This project has no learnt model version with id {version}.")
    if learnt.backend != backend:
        raise EvaluationRefused(
            f"Version {learnt.number} is a {learnt.backend} model: score it with the "
            f"{learnt.backend} backend, not {backend}."
        )
    return learnt


def model_evaluation_execute(*, evaluation_id: int, worker: str = "") -> str:
    """Predict and score (the Celery task's body). Returns what happened."""
    close_old_connections()
    claim = lifecycle.claim(
        ModelEvaluation,
        evaluation_id,
        worker=worker,
        started=lambda _: {"message": "loading the gold"},
    )
    if not claim.claimed:
        return claim.answer()
    evaluation: ModelEvaluation = claim.job
    try:
        with lifecycle.Heartbeat(evaluation):
            # below 1 until the result is stored: the page waits for the scores
            progress = lifecycle.progress_reporter(evaluation, ceiling=0.99)
            result = _evaluate(evaluation, progress)
    except Exception as exc:  # the row records any failure for the Models page
        logger.exception("model evaluation %s failed", evaluation.pk)
        failure = f"{type(exc).__name__}: {exc}"
        lifecycle.finish(
            evaluation,
            ModelEvaluation.Status.FAILED,
            failure,
            error=(failure + "\n\n" + traceback.format_exc()).strip(),
        )
        return f"failed: {failure}"
    device = result.pop("device", "")
    if not lifecycle.finish(
        evaluation,
        ModelEvaluation.Status.SUCCEEDED,
        f"{result['overall']['topics']} topics scored",
        result=result,
        device=device,
    ):
        return "skipped: another worker took the evaluation over"
    return "succeeded"


def _mark_seen(result: dict[str, Any], every, scored, seen, full) -> None:
    """Each scored topic with the models trained on it ("seen_by": red on the page), and the
    gold topics left out because one was."""
    names = {a.topic_id: str(full[a.pk].external_id) for a in scored}  # the rows' topic names
    by_name = {name: topic_id for topic_id, name in names.items()}
    for row in result["topics"]:
        row["seen_by"] = seen.get(by_name.get(row["topic"], -1), [])
    kept = {a.topic_id for a in scored}
    result["left_out"] = [
        {"topic": a.topic.external_id, "seen_by": seen[a.topic_id]}
        for a in every
        if a.topic_id not in kept and a.topic_id in seen
    ]
    result["trained_on_scored"] = sum(1 for row in result["topics"] if row["seen_by"])


def _evaluate(evaluation: ModelEvaluation, progress) -> dict[str, Any]:
    project = evaluation.project
    scheme = model_scores.scheme_of(evaluation.backend)
    seen = {int(t): who for t, who in evaluation.seen_topics.items()}
    every = sorted(
        gold_for(project, evaluation.gold_source).values(),
        key=lambda a: (a.topic.position, a.topic_id),
    )
    # topics a compared model was trained on: left out, or scored and marked when asked
    gold_rows = [a for a in every if evaluation.include_trained or a.topic_id not in seen]
    if not gold_rows:
        raise ValueError("no topic has this gold any more, or a model was trained on each")
    work = list(
        Annotation.objects.submitted()
        .annotator_work()
        .filter(topic_id__in=[a.topic_id for a in gold_rows])
        .select_related("assignment__user", "topic")
    )
    full = annotations_topic_data(gold_rows)  # tokens: the model reads the text
    scored = annotations_topic_data(work, scoring=True)
    counts = document_token_counts({a.topic_id for a in gold_rows})

    def plain(annotation: Annotation, data) -> api.TopicAnnotation:
        return replace(api.from_topic(data), token_counts=counts.get(annotation.topic_id, ()))

    params = dict(evaluation.params)
    if evaluation.backend in ON_A_DEVICE:
        params.setdefault("device", getattr(settings, "SUGGEST_DEVICE", "auto"))
    if evaluation.backend == "chemu":
        params.setdefault("propose_mentions", False)  # links between the gold's mentions
    models_local_for(evaluation.backend, params)  # with STORAGE_URL: from the bucket
    backend = get_backend(evaluation.backend, params, models_dir=settings.MODELS_DIR)
    started = time.perf_counter()
    predicted = model_scores.predict(
        backend, scheme, [full[a.pk] for a in gold_rows], progress=progress
    )
    seconds = time.perf_counter() - started
    progress(0.99, "scoring")
    gold = {}
    model = {}
    for annotation, prediction in zip(gold_rows, predicted, strict=True):
        key = plain(annotation, full[annotation.pk])
        gold[key.topic_id] = key
        model[key.topic_id] = plain(annotation, prediction)
    annotators: dict[str, dict[str, api.TopicAnnotation]] = {}
    for annotation in work:
        name = annotation.assignment_of_work.user.get_username()
        response = plain(annotation, scored[annotation.pk])
        annotators.setdefault(name, {})[response.topic_id] = response
    result = model_scores.scores(
        scheme, gold, model, annotators, hierarchy_count=project.hierarchy_count
    )
    result["seconds_per_topic"] = seconds / len(gold_rows)
    _mark_seen(result, every, gold_rows, seen, full)
    if evaluation.backend in ON_A_DEVICE:
        from modelserve.devices import pick_device  # torch: in the model worker only

        result["device"] = str(pick_device(params.get("device", "auto")))
    return result
