"""The `trained` backend: SciCo's unified model (section 4.2) trained on a project's own gold.

Inference: the frozen encoder embeds the mentions, the pair MLP gives every ordered mention
pair the four class probabilities (SciCo's classes, in SciCo's order), then SciCo's decoding
(scico_decoding.py), as the cross-encoder decodes: `decoding` scico-released (the default) or
paper, with `agg_threshold` / `hypernym_threshold` tuned at training (else SciCo's 0.6 / 0.4).
`decoding: legacy` keeps this backend's earlier decoding (average linkage on the mean of the
two directions' coreference probability, the child score averaged with the reverse parent
score, `cluster_threshold` / `hierarchy_threshold`). Train one with `train_suggester`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from corefscore.corpus import TopicData
from modelserve.backends import pair_classifier
from modelserve.backends.base import Progress, Suggestions, no_progress
from modelserve.backends.decoding import decode_four_class
from modelserve.backends.parameters import with_defaults
from modelserve.backends.scico_decoding import (
    AGG_THRESHOLD,
    HYPERNYM_THRESHOLD,
)
from modelserve.devices import pick_device
from modelserve.encoders import MentionEncoder

LEGACY = "legacy"


class TrainedBackend:
    name = "trained"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.params = with_defaults(self.name, params)  # parameters.py declares them
        if not self.params["model_dir"]:
            raise ValueError(
                "the trained backend needs model_dir (train one with `manage.py train_suggester`)"
            )
        device = pick_device(self.params["device"])
        self.model, self.config = pair_classifier.load(self.params["model_dir"], device)
        common = {
            "device": device,
            "max_length": self.config.get("max_length"),
            "batch_size": self.params["batch_size"],
        }
        path = self.config.get("encoder_path")
        self.in_context = MentionEncoder(
            path, context=self.config.get("context", "document"), **common
        )
        self.alone = MentionEncoder(path, context="none", **common)
        for name in ("cluster_threshold", "hierarchy_threshold"):
            if self.params[name] is None:
                self.params[name] = float(self.config[name])
        # a model trained before SciCo's decoding came here has no tuned values for it
        scico_defaults = {"agg_threshold": AGG_THRESHOLD, "hypernym_threshold": HYPERNYM_THRESHOLD}
        for name, default in scico_defaults.items():
            if self.params[name] is None:
                self.params[name] = float(self.config.get(name, default))

    def pair_probabilities(self, topic: TopicData) -> np.ndarray:
        """n x n x 4, SciCo's class order."""
        embeddings, scalars = pair_classifier.topic_inputs(topic, self.in_context, self.alone)
        return pair_classifier.pair_probabilities(self.model, embeddings, scalars)

    def suggest(self, topic: TopicData, *, progress: Progress = no_progress) -> Suggestions:
        progress(0.0, "scoring mention pairs")
        probabilities = self.pair_probabilities(topic)
        progress(0.8, "clustering and building the hierarchy")
        if self.params["decoding"] != LEGACY:
            from modelserve.backends.cross_encoder import decoded_suggestions

            suggestions = decoded_suggestions(
                probabilities,
                decoding=str(self.params["decoding"]),
                agg_threshold=float(self.params["agg_threshold"]),
                hypernym_threshold=float(self.params["hypernym_threshold"]),
            )
            progress(1.0, "done")
            return suggestions
        suggestions = decode_four_class(
            probabilities,
            cluster_threshold=float(self.params["cluster_threshold"]),
            hierarchy_threshold=float(self.params["hierarchy_threshold"]),
            single_parent=bool(self.params["single_parent"]),
        )
        progress(1.0, "done")
        return suggestions
