"""Predictions of the SciCo backends over whole files of topics (what `python -m
modelserve.predict --backend NAME --format scico IN OUT` runs for them).

The input's mentions are the candidate mentions; its clusters and relations play no part. The
output is the same topics with the predicted cluster ids (from 0, in order of first mention;
a mention the backend leaves out is alone) and relations. `model` is the backend's model
path parameter (below), `device` its device, `params` any other parameter of the backend.
Pure: no Django, no settings.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from corefscore.corpus import TopicData
from modelserve.backends.base import Suggestions
from modelserve.backends.scico_decoding import Decoded

SCICO_BACKENDS = (
    "minilm",
    "trained",
    "cross-encoder",
    "edit-distance",
    "same-head-lemma",
    "singleton",
    "entailment",
)
# the parameter naming each backend's model folder, and whether it has a default one in the
# models folder (models_dir / backend name)
MODEL_PARAMETER = {
    "minilm": ("encoder_path", False),
    "trained": ("model_dir", True),
    "cross-encoder": ("model_path", True),
    "entailment": ("nli_model", False),
}
ON_A_DEVICE = {"minilm", "trained", "cross-encoder", "entailment"}


def scico_params(
    name: str,
    *,
    models_dir: Path | None = None,
    model: Path | None = None,
    device: str = "auto",
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The backend's parameters from the command line's options."""
    out = dict(params or {})
    if name in MODEL_PARAMETER:
        key, has_default = MODEL_PARAMETER[name]
        if model is not None:
            out[key] = str(model)
        elif key not in out and has_default and models_dir is not None:
            out[key] = str(models_dir / name)
    if name in ON_A_DEVICE:
        out.setdefault("device", device)
    return out


def predict_scico(name: str, topics: list[TopicData], params: dict[str, Any]) -> list[TopicData]:
    from modelserve.backends import backend_class
    from modelserve.decode import with_prediction

    backend = backend_class(name)(params)
    return [with_prediction(topic, as_decoded(backend.suggest(topic))) for topic in topics]


def as_decoded(suggestions: Suggestions) -> Decoded:
    return Decoded(
        [list(c.mentions) for c in suggestions.clusters],
        [(e.parent, e.child, e.score) for e in suggestions.edges],
    )


def scico_given(name: str) -> Callable[[list[TopicData], Any], list[TopicData]]:
    """The prediction function of backend `name` for modelserve.prediction's registry (its
    options: models_dir, model, device, params)."""

    def given(topics: list[TopicData], options: Any) -> list[TopicData]:
        params = scico_params(
            name,
            models_dir=options.models_dir,
            model=options.model,
            device=options.device,
            params=getattr(options, "params", None),
        )
        return predict_scico(name, topics, params)

    return given
