"""Learning in the loop (docs/learning.md): a project's submitted and adjudicated topics
retrain its suggester in the model worker, each training a new ModelVersion with held-out
scores.

- `learning_request` queues a retraining when one is due (debounced: LEARN_EVERY_SUBMISSIONS
  new submissions, or the oldest new one waiting LEARN_WAIT_SECONDS; one per project at a
  time). A submission calls it after commit (the `submitted` gate, registered in apps.py);
  every model worker's sweeper calls `learning_due_request` too, so a submission that arrived
  while a training ran, or inside the wait, is learnt from later without another submission.
- `learning_train` is what the training's thread runs (modelserve/services/trainings.py
  claims the ModelTraining row, beats its heartbeat and takes over a dead worker's training,
  as for runs).
"""

from __future__ import annotations

import logging
import re
import shutil
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from annotation.models import Annotation, Assignment, Project
from foundation.jobs import lifecycle
from foundation.side_effects import after_commit
from modelserve.learning_selectors import chemu_base_topics, project_work
from modelserve.model_scores import scheme_of
from modelserve.model_store import model_upload, models_local_for
from modelserve.models import ModelTraining, ModelVersion, SuggestionSettings
from modelserve.selectors import project_suggestion_settings
from modelserve.services.settings import model_path_checked
from modelserve.services.training_tasks import training_task_send
from modelserve.training.learning import (
    CHEMU,
    eligibility,
    is_not_worse,
    learner_for,
    mention_epochs_within,
    primary_score,
    run_params,
    with_base,
)
from modelserve.version_selectors import serving_model_version

logger = logging.getLogger(__name__)
ACTIVE = (ModelTraining.Status.QUEUED, ModelTraining.Status.RUNNING)
Progress = Callable[[float, str], None]


def training_name(project_id: int) -> str:
    # one queued or running training per name (constraint training_one_active_per_name)
    return f"learn-{project_id}"


def learning_on_submit(assignment: Assignment) -> None:
    """The `submitted` gate (annotation/gates.py): in the submit transaction, so the request
    waits for the commit; it never refuses a submission."""
    after_commit(learning_request_quietly, project_id=assignment.topic.project_id)


def learning_request_quietly(*, project_id: int) -> None:
    try:
        learning_request(project_id=project_id)
    except Exception:  # a submission stands whatever happens here; the sweeper tries again
        logger.exception("learning request for project %s failed", project_id)


def _new_submissions(project_id: int, since) -> list:
    rows = Assignment.objects.filter(
        topic__project_id=project_id,
        status=Assignment.Status.SUBMITTED,
        annotation__kind__in=[Annotation.Kind.ANNOTATOR, Annotation.Kind.ADJUDICATION],
    )
    if since is not None:
        rows = rows.filter(submitted_at__gt=since)
    return list(rows.order_by("submitted_at").values_list("submitted_at", flat=True))


def learning_request(*, project_id: int, now=None) -> ModelTraining | None:
    """Queue the project's retraining if learning is on and one is due; the task is sent after
    commit. None: off, not due, or one queued or running already (it will be looked at again
    by the sweeper once that one ends)."""
    now = now or timezone.now()
    with transaction.atomic():
        row = SuggestionSettings.objects.select_for_update().filter(project_id=project_id).first()
        if row is None or not row.learn:
            return None
        trainings = ModelTraining.objects.filter(project_id=project_id)
        if trainings.filter(status__in=ACTIVE).exists():
            return None
        last = trainings.order_by("-created_at").first()
        new = _new_submissions(project_id, last.created_at if last else None)
        if not new:
            return None
        waited = now - new[0] >= timedelta(seconds=settings.LEARN_WAIT_SECONDS)
        if len(new) < settings.LEARN_EVERY_SUBMISSIONS and not waited:
            return None
        training = ModelTraining.objects.create(
            name=training_name(project_id),
            project_id=project_id,
            message=f"waiting for a model worker ({len(new)} new submission(s))",
        )
        after_commit(training_task_send, training.pk, backend=learning_backend(project_id))
    return training


def learning_backend(project_id: int) -> str:
    """The backend a project's retraining trains (and whose queue it waits in)."""
    from modelserve.selectors import project_suggestion_settings

    project = Project.objects.get(pk=project_id)
    return learner_for(
        anaphora=project.anaphora,
        configured_backend=project_suggestion_settings(project_id).backend,
    )


def learning_due_request() -> list[int]:
    """The sweeper's call: a retraining for every learning project where one is due."""
    queued = []
    for project_id in SuggestionSettings.objects.filter(learn=True).values_list(
        "project_id", flat=True
    ):
        if learning_request(project_id=project_id) is not None:
            queued.append(project_id)
    return queued


def _stage(progress: Progress, start: float, end: float) -> Callable[[str], None]:
    """A log function that reports its line as the message, the fraction moving within
    [start, end] by the last `i/n` a line names (epochs, topics embedded)."""

    def log(line: str) -> None:
        fraction = start
        found = re.findall(r"(\d+)\s*/\s*(\d+)", line)
        if found:
            done, total = map(int, found[-1])
            if total:
                fraction = start + (end - start) * min(1.0, done / total)
        progress(fraction, line.strip()[:300])

    return log


def learning_start(project_id: int) -> tuple[str | None, str]:
    """(encoder folder, training profile) the project's learning starts from: its settings,
    the folder checked again as runs check theirs (MODEL_PATHS_ALLOWED may have changed since
    it was saved); None: the packaged MiniLM."""
    chosen = project_suggestion_settings(project_id)
    folder = chosen.learn_encoder
    encoder = model_path_checked("learn_encoder", value=folder) if folder else None
    return encoder, chosen.learn_profile


def learning_fit(
    backend: str,
    *,
    train,
    folder: Path,
    progress: Progress,
    encoder: str | None = None,
    profile: str = "default",
) -> dict[str, Any]:
    """Train `backend` into `folder` from `encoder` (None: the packaged MiniLM; the ChEMU
    link model takes none), the cross-encoder by `profile`; the run parameters of the
    result."""
    from modelserve.training.registry import train_topics

    epochs = settings.LEARN_EPOCHS or None
    device = settings.SUGGEST_DEVICE
    model_folder = folder / ("links" if backend == CHEMU else "model")
    end = 0.45 if backend == CHEMU and settings.LEARN_MENTION_EPOCHS else 0.7
    if backend == "cross-encoder":
        _fine_tune(train, model_folder, epochs, progress, encoder=encoder, profile=profile)
    else:
        train_topics(
            backend,
            train,
            model_folder,
            epochs=epochs,
            device=device,
            holdout=0.0 if backend == CHEMU else None,
            encoder=encoder,
            log=_stage(progress, 0.1, end),
        )
    mentions_folder = None
    if backend == CHEMU and settings.LEARN_MENTION_EPOCHS:
        from modelserve.backends import vector_cache
        from modelserve.backends.chemu_mentions import train_chemu_mentions

        mentions_folder = folder / "mentions"
        documents = sum(len(topic.documents) for topic in train)
        train_chemu_mentions(
            train,
            mentions_folder,
            holdout_fraction=0.0,
            epochs=mention_epochs_within(
                settings.LEARN_MENTION_EPOCHS, settings.LEARN_MENTION_BUDGET, documents
            ),
            device=device,
            link_model_dir=model_folder,
            vector_folder=Path(settings.MODELS_DIR) / vector_cache.FOLDER,
            log=_stage(progress, end, 0.7),
        )
    mentions = str(mentions_folder) if mentions_folder else None
    return run_params(backend, str(model_folder), mentions_folder=mentions)


def _fine_tune(
    train,
    out: Path,
    epochs: int | None,
    progress: Progress,
    *,
    encoder: str | None = None,
    profile: str = "default",
) -> None:
    """SciCo's unified cross-encoder fine-tuned from `encoder` (None: the packaged MiniLM) by
    the profile's recipe, its thresholds tuned on a dev share of the training topics as the
    registry does; called directly rather than through the registry so that its per-batch
    progress reaches the Suggestions page."""
    from modelserve.encoders import default_encoder_path
    from modelserve.training.cross_encoder import held_out, train_cross_encoder
    from modelserve.training.profiles import profile_hyperparameters
    from modelserve.training.registry import TRAINABLE

    fit, dev = held_out(train, TRAINABLE["cross-encoder"].holdout, 0)
    train_cross_encoder(
        fit,
        dev,
        encoder=encoder or default_encoder_path(),
        out=out,
        hyperparameters=profile_hyperparameters(profile, epochs=epochs or 1),
        device=settings.SUGGEST_DEVICE,
        log=_stage(progress, 0.6, 0.7),
        progress=lambda fraction, message: progress(0.1 + 0.5 * fraction, message),
    )


def _share(params: dict[str, Any]) -> None:
    """With STORAGE_URL, the version's folders go to the bucket, so that every model worker's
    runs find them (modelserve/model_store.py); without it, nothing to do."""
    root = Path(settings.MODELS_DIR)
    for value in params.values():
        model_upload(Path(value).relative_to(root).as_posix())


def learning_train(training: ModelTraining, *, progress: Progress) -> str:
    """Train a new version of the training's project from its work; returns the summary."""
    from modelserve.training.learning_scores import held_out_judged

    assert training.project_id is not None  # trainings.py sends only a project's here
    project = Project.objects.get(pk=training.project_id)
    backend = learning_backend(project.pk)
    work = project_work(project)
    if len(work.train) < settings.LEARN_MIN_TOPICS:
        raise ValueError(
            f"{len(work.train)} submitted topic(s) to train on (held-out ones aside); "
            f"learning starts at {settings.LEARN_MIN_TOPICS}"
        )
    sizes = f"{len(work.train)} topics to train on, {len(work.held_out)} held out"
    train, base = work.train, []
    if backend == CHEMU and settings.LEARN_CHEMU_BASE:
        base = chemu_base_topics(work.train + work.held_out)
        train = with_base(work.train, base, weight=settings.LEARN_TEAM_WEIGHT)
    if base:
        sizes += f", beside {len(base)} snippets of the ChEMU-Ref training file"
    progress(0.05, f"{backend}: {sizes}")
    # one folder per claim: a late worker still writing its own cannot mix files into ours
    folder = (
        Path(settings.MODELS_DIR)
        / "learned"
        / f"project-{project.pk}"
        / f"t{training.pk}-a{training.attempts}"
    )
    shutil.rmtree(folder, ignore_errors=True)
    encoder, profile = learning_start(project.pk)
    params = learning_fit(
        backend, train=train, folder=folder, progress=progress, encoder=encoder, profile=profile
    )
    _share(params)
    score_options = {"models_dir": Path(settings.MODELS_DIR), "device": settings.SUGGEST_DEVICE}
    progress(0.75, f"scoring on {len(work.held_out)} held-out topics")
    judged = held_out_judged(backend, params, work.held_out, **score_options)
    score = primary_score(backend, judged.scores)
    compared_with, previous_score = _serving_scored(
        project.pk, backend, work.held_out, progress, score_options
    )
    verdict = eligibility(
        holdout_topics=len(work.held_out),
        min_holdout=settings.LEARN_MIN_HELDOUT_TOPICS,
        degenerate=judged.degenerate,
        score=score,
        previous_score=previous_score,
        compared_with=compared_with,
    )
    beside = f" beside {len(base)} base snippets" if base else ""
    version = _version_save(
        training,
        summary=lambda version: _summary(version, len(work.train), beside),
        backend=backend,
        folder=folder,
        params=params,
        topics_used=len(work.train),
        trained_topics=work.train_ids,
        holdout=len(work.held_out),
        scores=judged.scores,
        score=score,
        previous_score=previous_score,
        compared_with=compared_with,
        degenerate=judged.degenerate,
        verdict=verdict,
    )
    if version is None:
        return "another worker took the training over; its result is dropped"
    return training.message


def _serving_scored(
    project_id: int, backend: str, held_out: list, progress: Progress, options: dict[str, Any]
) -> tuple[str, float | None]:
    """What serves now (the serving version, else the base model: the project's backend as
    set) in words, and its primary figure on the same held-out topics (None: none held out,
    or it could not predict them, which the verdict then says)."""
    from modelserve.training.learning_scores import held_out_scores

    previous = serving_model_version(project_id)
    if previous is not None:
        label, name, params = f"version {previous.number}", previous.backend, previous.params
    else:
        configured = project_suggestion_settings(project_id)
        name, params = configured.backend, dict(configured.params)
        label = f"the base model ({name})"
    if not held_out:
        return label, None
    if scheme_of(name) != scheme_of(backend):
        # a base that predicts another scheme (a cluster model on an anaphora project)
        # suggests nothing of this kind: its figure is 0
        kind = "links" if backend == CHEMU else "clusters"
        return f"{label}, which suggests no {kind}", 0.0
    progress(0.9, f"scoring {label} on the same held-out topics")
    try:
        models_local_for(name, params)  # with STORAGE_URL: from the bucket
        scores = held_out_scores(name, params, held_out, **options)
    except Exception:  # a base that cannot predict: the new version is not shown not worse
        logger.exception("scoring %s of project %s on held-out topics failed", label, project_id)
        return f"{label} (which could not be scored)", None
    return label, primary_score(backend, scores)


def _summary(version: ModelVersion, topics: int, beside: str) -> str:
    # the verdict names the held-out figure where there is one (the message keeps 300 chars)
    return f"version {version.number} on {topics} topics{beside}: {version.eligibility}"


def _version_save(
    training: ModelTraining, *, summary: Callable[[ModelVersion], str], **fields: Any
) -> ModelVersion | None:
    """The version, numbered in order, and the training finished in the same transaction, if
    the training is still this execution's: a worker whose training was taken over must not
    add a second version, and one killed after the version was stored must not leave the
    training running, for a take-over to train and store it again."""
    project_id = training.project_id
    assert project_id is not None
    with transaction.atomic():
        if not lifecycle.still_owned(training):
            return None
        # numbers are given one at a time per project
        SuggestionSettings.objects.select_for_update().filter(project_id=project_id).first()
        number = (
            ModelVersion.objects.filter(project_id=project_id).aggregate(Max("number"))[
                "number__max"
            ]
            or 0
        ) + 1
        version = ModelVersion.objects.create(
            project_id=project_id,
            backend=fields["backend"],
            number=number,
            path=str(fields["folder"]),
            params=fields["params"],
            topics_used=fields["topics_used"],
            holdout_topics=fields["holdout"],
            scores=fields["scores"],
            score=fields["score"],
            previous_score=fields["previous_score"],
            not_worse=is_not_worse(fields["score"], fields["previous_score"]),
            compared_with=fields["compared_with"],
            degenerate=fields["degenerate"],
            eligible=fields["verdict"].eligible,
            eligibility=fields["verdict"].reason,
            trained_topics=fields["trained_topics"],
            training=training,
        )
        lifecycle.finish(training, ModelTraining.Status.SUCCEEDED, summary(version))
        return version
