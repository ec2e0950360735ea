"""The `trained` backend: SciCo's unified model (section 4.2) trained on a project's own gold.

Inference: the frozen encoder embeds the mentions, the pair MLP gives every ordered mention
pair the four class probabilities, then the shared decoding: average-linkage clustering on the
coreference probability, hierarchy edges greedily from the cluster-averaged child/parent
probability, skipping cycles, down to the tuned threshold. Train one with `train_suggester`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from annotation.domain.corpus import TopicData
from modelserve.backends import pair_classifier
from modelserve.backends.base import Progress, Suggestions, no_progress
from modelserve.backends.decoding import decode_four_class
from modelserve.devices import pick_device
from modelserve.encoders import MentionEncoder

DEFAULTS: dict[str, Any] = {
    "model_dir": None,  # required: a directory written by train_suggester
    "device": "auto",
    "batch_size": 32,
    "cluster_threshold": None,  # None: the tuned value saved with the model
    "hierarchy_threshold": None,
    "single_parent": True,
}


class TrainedBackend:
    name = "trained"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        unknown = set(params or {}) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"unknown trained-backend parameters: {sorted(unknown)}")
        self.params = {**DEFAULTS, **(params or {})}
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

    def pair_probabilities(self, topic: TopicData) -> np.ndarray:
        """n x n x 4, SciCo's class order."""
        embeddings, scalars = pair_classifier.topic_inputs(topic, self.in_context, self.alone)
        return pair_classifier.pair_probabilities(self.model, embeddings, scalars)

    def suggest(self, topic: TopicData, *, progress: Progress = no_progress) -> Suggestions:
        progress(0.0, "scoring mention pairs")
        probabilities = self.pair_probabilities(topic)
        progress(0.8, "clustering and building the hierarchy")
        suggestions = decode_four_class(
            probabilities,
            cluster_threshold=float(self.params["cluster_threshold"]),
            hierarchy_threshold=float(self.params["hierarchy_threshold"]),
            single_parent=bool(self.params["single_parent"]),
        )
        progress(1.0, "done")
        return suggestions
