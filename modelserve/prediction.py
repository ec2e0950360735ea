"""Predictions over whole files of topics, by backend: what `python -m modelserve.predict` runs.

Each entry of `PREDICTORS` says which format its files are in and how it predicts given the
topics' mentions (`given`) and, where it can, from their text alone (`raw`). Pure: no Django,
no settings; the models folder and any model paths come in `PredictOptions`. A new backend or
mode is one more entry.

chemu, given mentions: the mentions the input's relations use are the candidate mentions
(the relations themselves play no part), and the output has predicted relations between
those mentions only: a trained mention tagger is not used in this mode (its
proposed mentions made links to mentions the output does not have). chemu, raw: the tagger
finds the mentions, the link model links them; the output has all five relation lists.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corefscore.corpus import TopicData
from modelserve.scico_prediction import SCICO_BACKENDS, scico_given


class ModelMissing(Exception):
    """A model the prediction needs is not trained (the message says how to train it)."""


@dataclass(frozen=True)
class PredictOptions:
    models_dir: Path  # where the backend's default model folders are
    model: Path | None = None  # None: the backend's folder in models_dir
    mentions_model: Path | None = None  # raw mode's mention model; None: its default folder
    threshold: float | None = None  # None: the model's own
    device: str = "auto"
    params: dict[str, Any] = field(default_factory=dict)  # the backend's other parameters


Predict = Callable[[list[TopicData], PredictOptions], list[TopicData]]


@dataclass(frozen=True)
class Predictor:
    format: str  # read and written (a name in corefscore.formats.FORMATS)
    given: Predict  # predictions given the topics' mentions
    raw: Predict | None = None  # predictions from the text alone, where the backend can


def chemu_given_mentions(topics: list[TopicData], options: PredictOptions) -> list[TopicData]:
    from modelserve.backends.chemu import ChemuBackend, with_links

    backend = ChemuBackend(
        {
            "model_dir": options.model or options.models_dir / "chemu",
            "device": options.device,
            "threshold": options.threshold,
            "propose_mentions": False,
            "ensemble": bool(options.params.get("ensemble", True)),
        }
    )
    # the input's relations play no part beyond naming the mentions
    return [with_links(topic, backend.suggest(with_links(topic, [])).links) for topic in topics]


def chemu_from_text(topics: list[TopicData], options: PredictOptions) -> list[TopicData]:
    from modelserve.backends import chemu_ensemble, chemu_mentions, chemu_model

    model_dir = options.model or options.models_dir / "chemu"
    # the ensemble saved with the link model, as the model worker's runs use it
    ensemble = (
        chemu_ensemble.load_ensemble(model_dir, options.device)
        if options.params.get("ensemble", True) and options.mentions_model is None
        else None
    )
    if ensemble is not None and ensemble.taggers:
        return [
            _all_relation_lists(
                raw,
                chemu_ensemble.ensemble_from_text(
                    ensemble.taggers, ensemble.link_models, raw, options.threshold
                ),
            )
            for raw in map(chemu_mentions.without_mentions, topics)
        ]
    mentions_dir = options.mentions_model or options.models_dir / chemu_mentions.DIRECTORY
    if not chemu_mentions.mentions_trained(mentions_dir):
        raise ModelMissing(
            f"no trained mention tagger in {mentions_dir}: train one with "
            "`python -m modelserve.train --backend chemu`"
        )
    link_model = chemu_model.load(model_dir, options.device)
    tagger = chemu_mentions.load_mentions(mentions_dir, link_model.device)
    return [
        _all_relation_lists(
            raw, chemu_mentions.suggest_from_text(tagger, link_model, raw, options.threshold)
        )
        for raw in map(chemu_mentions.without_mentions, topics)
    ]


def _all_relation_lists(raw: TopicData, found: Any) -> TopicData:
    """The raw topic with the found mentions and links, written with all five relation lists
    (empty ones too), whatever fields the input had."""
    from corefscore.formats.chemu import DEFAULT_FIELDS, FORMAT
    from modelserve.backends import chemu_mentions
    from modelserve.backends.chemu_linking import with_links

    result = with_links(chemu_mentions.with_mentions(raw, found.mentions), found.links)
    metadata = dict(result.metadata.get(FORMAT, {}))
    metadata["fields"] = list(
        dict.fromkeys([*metadata.get("fields", DEFAULT_FIELDS), *DEFAULT_FIELDS])
    )
    result.metadata = {**result.metadata, FORMAT: metadata}
    return result


PREDICTORS: dict[str, Predictor] = {
    "chemu": Predictor("chemu", given=chemu_given_mentions, raw=chemu_from_text),
}
# SciCo's backends: clusters and hierarchy of the input's mentions (modelserve/scico_prediction.py)
PREDICTORS.update({name: Predictor("scico", given=scico_given(name)) for name in SCICO_BACKENDS})
