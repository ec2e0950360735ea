"""Reads for the admin Models page: what can be evaluated (backends, the models each can score:
the project's learnt versions and the other trained folders, gold sources), the evaluations
kept, and their CSV (one run, or two side by side).

CSV layout (docs/models.md, "Models scored in the app"): one row per (scope, topic, metric);
scope `overall` (all the gold's topics: the model alone), `shared` (the topics some annotator
submitted: the model and the annotators' AVG) and `topic` (one gold topic); then, per run, the
model's score and the 95% bootstrap interval (overall rows), and the annotators' AVG and its
interval on the same topics. Scores are fractions (0-1), as in the agreement report's CSV.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import QuerySet

from annotation.domain.errors import NotFound
from annotation.models import Annotation, Project
from annotation.selectors.gold import (
    adjudicated_annotations,
    gold_annotations,
    gold_coverage,
    imported_gold_annotations,
)
from modelserve import model_scores
from modelserve.backends import available_backends
from modelserve.evaluation_seen import seen_listed, seen_topics
from modelserve.models import ModelEvaluation, ModelVersion
from modelserve.training.learning import METRICS
from modelserve.version_selectors import project_model_versions

GOLD_LABELS = {
    ModelEvaluation.Gold.GOLD: "the agreement report's gold (adjudicated, else imported)",
    ModelEvaluation.Gold.ADJUDICATED: "submitted adjudications only",
    ModelEvaluation.Gold.IMPORTED: "imported gold only",
}


def backends_for(project: Project) -> list[str]:
    """The backends that predict what the project annotates: SciCo's for hierarchy
    projects, chemu for anaphora projects."""
    names = []
    for name in available_backends():
        scheme = model_scores.scheme_of(name)
        if (scheme == "scico" and project.hierarchy) or (scheme == "chemu" and project.anaphora):
            names.append(name)
    return names


def gold_for(project: Project, source: str) -> dict[int, Annotation]:
    if source == ModelEvaluation.Gold.ADJUDICATED:
        return adjudicated_annotations(project)
    if source == ModelEvaluation.Gold.IMPORTED:
        return imported_gold_annotations(project)
    return gold_annotations(project)


def model_versions(project: Project, backend: str) -> list[dict[str, Any]]:
    """The one list of models an evaluation of `backend` can score: the project's learnt
    versions of that backend (docs/learning.md), newest first, each with its number, when it
    was trained, the topics it learnt from, its held-out score and whether the project's runs
    use it now; then the other trained folders (`trained_folders`). `model_version` is
    the folder relative to MODELS_DIR (absolute when outside it); `version` the learnt
    version's facts, None for a folder."""
    if backend not in model_scores.MODEL_PARAMETER:
        return []
    state = project_model_versions(project.pk)  # as the Suggestions page shows them
    learnt = [v for v in reversed(state["versions"]) if v.backend == backend]
    metric = METRICS.get(backend, ("", "score"))[1]
    choices: list[dict[str, Any]] = [
        {
            "model_version": models_relative(v.path),
            "version": {
                "id": v.pk,
                "number": v.number,
                "backend": v.backend,
                "created_at": v.created_at,
                "topics_used": v.topics_used,
                "holdout_topics": v.holdout_topics,
                "score": v.score,
                "metric": metric,
                "not_worse": v.not_worse,
                "eligible": v.eligible,
                "eligibility": v.eligibility,
                # what runs use: only while the project learns (docs/learning.md)
                "serving": state["learn"] and state["serving"] == v.pk,
                "pinned": state["pinned"] == v.pk,
            },
        }
        for v in learnt
    ]
    return choices + [{"model_version": f, "version": None} for f in trained_folders(backend)]


def models_relative(path: str) -> str:
    """A model folder as the Models page names it: relative to MODELS_DIR when inside."""
    root = Path(settings.MODELS_DIR).resolve()
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return path


def trained_folders(backend: str) -> list[str]:
    """The trained models of a backend found in the models folder, outside learning: a folder
    named after the backend (`MODELS_DIR/cross-encoder`), one whose name starts with it and a
    dash (`cross-encoder-2026-11-26`), the folders inside `MODELS_DIR/<backend>/` (where
    `train_suggester` saves a project's `trained` model) and `MODELS_DIR/<backend>/versions/`;
    entailment's NLI models are folders whose name holds "nli". Paths relative to MODELS_DIR."""
    root = Path(settings.MODELS_DIR)
    if not root.is_dir():
        return []
    found = []
    for folder in sorted(root.iterdir()):
        if not folder.is_dir():
            continue
        name = folder.name
        named = name == backend or name.startswith(f"{backend}-")
        if backend == "entailment":
            named = named or "nli" in name.lower()
        if named:
            found.append(name)
        if name == backend:  # `train_suggester` saves into MODELS_DIR/trained/<project>
            found += [
                str(inner.relative_to(root))
                for inner in sorted(folder.iterdir())
                if inner.is_dir() and inner.name != "versions"
            ]
            versions = folder / "versions"
            if versions.is_dir():
                found += [f"{name}/versions/{v.name}" for v in sorted(versions.iterdir())]
    return found


def project_version(project: Project, version_id: int) -> ModelVersion | None:
    """The project's learnt version `version_id`; None when it is not this project's."""
    return ModelVersion.objects.filter(project=project, pk=version_id).first()


def evaluation_choices(project: Project) -> dict[str, Any]:
    backends = backends_for(project)
    return {
        "backends": [
            {
                "name": name,
                "model_versions": model_versions(project, name),
                "takes_model": name in model_scores.MODEL_PARAMETER,
            }
            for name in backends
        ],
        "gold_sources": [
            _gold_choice(project, source, label) for source, label in GOLD_LABELS.items()
        ],
        "seen": seen_listed(seen_topics(project.pk)),
    }


def _gold_choice(project: Project, source: str, label: str) -> dict[str, Any]:
    gold = gold_for(project, source)
    # A gold that clusters only some mentions scores a model low by construction; an anaphora
    # gold (links) leaves mentions unlinked by design.
    coverage = gold_coverage(gold).as_dict() if project.hierarchy else None
    return {
        "gold_source": source,
        "description": label,
        "topics": len(gold),
        "gold_coverage": coverage,
    }


def project_evaluations(project: Project) -> QuerySet[ModelEvaluation]:
    return ModelEvaluation.objects.filter(project=project).select_related("requested_by", "version")


def evaluations_by_ids(ids: list[int]) -> list[ModelEvaluation]:
    """The evaluations in the order asked; NotFound names the first that does not exist."""
    rows = {e.pk: e for e in ModelEvaluation.objects.filter(pk__in=ids).select_related("version")}
    missing = [i for i in ids if i not in rows]
    if missing:
        raise NotFound(
            "model evaluation", missing[0], f"There is no model evaluation {missing[0]}."
        )
    return [rows[i] for i in ids]


def evaluations_csv(evaluations: list[ModelEvaluation]) -> str:
    """The evaluations' scores, side by side (layout: this module's docstring)."""
    header = ["scope", "topic", "metric"]
    for e in evaluations:
        tag = f"run {e.pk} {e.backend}" + (f" v{e.version.number}" if e.version else "")
        header += [
            f"{tag} model",
            f"{tag} model ci low",
            f"{tag} model ci high",
            f"{tag} annotators avg",
            f"{tag} annotators ci low",
            f"{tag} annotators ci high",
        ]
    results = [e.result or {} for e in evaluations]
    metrics = list(dict.fromkeys(m for r in results for m in r.get("metrics", [])))
    rows = [header]
    for scope in ("overall", "shared"):
        for metric in metrics:
            row = [scope, "", metric]
            for result in results:
                part = result.get(scope, {})
                row += _cells(part.get("model", {}).get(metric))
                humans = part.get("annotators_avg", {}).get(metric) if scope == "shared" else None
                row += _cells(humans)
            rows.append(row)
    topics = list(dict.fromkeys(t["topic"] for r in results for t in r.get("topics", [])))
    by_run = [{t["topic"]: t for t in r.get("topics", [])} for r in results]
    for topic in topics:
        for metric in metrics:
            row = ["topic", topic, metric]
            for found in by_run:
                entry = found.get(topic)
                model = entry["model"].get(metric) if entry else None
                humans = (entry.get("annotators") or {}).get(metric) if entry else None
                row += [_number(model), "", "", _number(humans), "", ""]
            rows.append(row)
    stream = io.StringIO()
    csv.writer(stream, lineterminator="\n").writerows(rows)
    return stream.getvalue()


def _cells(summary: dict[str, Any] | None) -> list[str]:
    if not summary:
        return ["", "", ""]
    ci = summary.get("ci") or [None, None]
    return [_number(summary.get("score")), _number(ci[0]), _number(ci[1])]


def _number(value: float | None) -> str:
    return "" if value is None else repr(float(value))
