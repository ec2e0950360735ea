"""Held-out scores of a learnt version (docs/learning.md): the version predicts the held-out
topics from their mentions, as a run would (modelserve/prediction.py `PREDICTORS`), and the
project's scorer compares the prediction with the topics' teaching annotations.

Pure: no Django, no settings; the models folder and the device come from the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corefscore.corpus import TopicData
from corefscore.scoring.api import score_chemu, score_scico
from modelserve.prediction import PREDICTORS, PredictOptions
from modelserve.training.degenerate import degenerate
from modelserve.training.learning import CHEMU

# the parameters naming a model folder, taken out of `params` into the options
FOLDERS = ("model_dir", "model_path", "mentions_dir")


@dataclass(frozen=True)
class HeldOut:
    scores: dict[str, Any] | None  # None: no held-out topic
    degenerate: str  # what is degenerate about its suggestions there; "": nothing


def held_out_scores(
    backend: str,
    params: dict[str, Any],
    gold: list[TopicData],
    *,
    models_dir: Path,
    device: str = "auto",
) -> dict[str, Any] | None:
    """The version's held-out figures (flat, named as in `learning.METRICS`); None without
    held-out topics."""
    return held_out_judged(backend, params, gold, models_dir=models_dir, device=device).scores


def held_out_judged(
    backend: str,
    params: dict[str, Any],
    gold: list[TopicData],
    *,
    models_dir: Path,
    device: str = "auto",
) -> HeldOut:
    """The held-out figures of `backend` with `params` (a learnt version's folders, or the
    base model's settings), and whether its predictions there are degenerate."""
    if not gold:
        return HeldOut(None, "")
    model = params.get("model_dir") or params.get("model_path")
    options = PredictOptions(
        models_dir=models_dir,
        model=Path(model) if model else None,
        mentions_model=Path(params["mentions_dir"]) if params.get("mentions_dir") else None,
        device=device,
        params={k: v for k, v in params.items() if k not in (*FOLDERS, "device")},
    )
    predictor = PREDICTORS[backend]
    given = predictor.given(gold, options)
    judged = degenerate(gold, given, links=backend == CHEMU)
    if backend == CHEMU:
        scores = score_chemu(gold, given, intervals=False)
        out = {
            "relation_f1": _figure(scores["exact"]["overall"]["f1"]),
            "relation_f1_relaxed": _figure(scores["relaxed"]["overall"]["f1"]),
        }
        if options.mentions_model is not None and predictor.raw is not None:
            raw = score_chemu(gold, predictor.raw(gold, options), intervals=False)
            out["raw_relation_f1"] = _figure(raw["exact"]["overall"]["f1"])
            out["mention_f1"] = _figure(raw["mention_detection"]["exact"]["f1"])
        return HeldOut(out, judged)
    scores = score_scico(gold, given, intervals=False)
    figures = {
        "conll_f1": _figure(scores["conll_f1"]),
        "hierarchy_f1": _figure(scores["hierarchy"]["f1"]),
        "path_ratio": _figure(scores["path_ratio"]["micro"]),
    }
    return HeldOut(figures, judged)


def _figure(value: float | None) -> float | None:
    """A held-out figure; None where undefined (nothing to score on either side)."""
    return None if value is None else float(value)
