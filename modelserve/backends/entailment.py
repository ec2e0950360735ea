"""The `entailment` backend: SciCo's entailment baseline for the hierarchy (section 4.1, its
`utils/model_utils.py::get_hypernym_relations` with `models/baselines.py::EntailmentModel`).

Clusters come from any other backend (`clusters`, default `edit-distance`, with
`clusters_params`). Each cluster is written as up to 10 of its mention strings joined by ", ";
for every ordered pair of clusters (A, B) an NLI model reads "A<sep><sep>B" (SciCo joins them
with `</s></s>`, RoBERTa's separator, which is the tokenizer's own for the MNLI models it used)
as one string; where the model's arg-max is "entailment", "B is the parent of A" is a candidate
scored with the entailment probability; then the greedy acyclic pass of the SciCo decoding
(`decoding`: scico-released walks the candidates in ascending order as the released code does,
`paper` highest first). The NLI checkpoint is any local sequence-classification model
(`nli_model`, a path); its entailment class is the one `id2label` names so, else the last (as
SciCo assumes).

Not SciCo's: SciCo draws the (at most 10) strings at random without a seed; here a cluster of
more than 10 mentions gives a seeded sample (`seed`), kept in mention order, and a smaller one
all its strings in mention order.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from corefscore.corpus import TopicData
from modelserve.backends.base import EdgeSuggestion, Progress, Suggestions, no_progress
from modelserve.backends.edit_distance import mention_text
from modelserve.backends.parameters import with_defaults
from modelserve.backends.scico_decoding import greedy_relations
from modelserve.devices import pick_device
from modelserve.loaded_models import LoadedModels

_LOADED: LoadedModels[tuple[str, str], tuple[Any, Any]] = LoadedModels("entailment models")


def entailment_index(id2label: dict[int, str], num_labels: int) -> int:
    for index in range(num_labels):
        if re.sub(r"[^a-z]", "", str(id2label.get(index, "")).lower()) in {"entailment", "entail"}:
            return index
    return num_labels - 1


def cluster_strings(
    topic: TopicData, clusters: list[list[int]], sample: int, seed: int
) -> list[str]:
    rng = np.random.default_rng(seed)
    out = []
    for members in clusters:
        chosen = members
        if len(members) > sample:
            chosen = sorted(int(m) for m in rng.choice(members, sample, replace=False))
        out.append(", ".join(mention_text(topic, m) for m in chosen))
    return out


class EntailmentBackend:
    name = "entailment"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.params = with_defaults(self.name, params)  # parameters.py declares them
        if not self.params["nli_model"]:
            raise ValueError("the entailment backend needs nli_model (a local NLI checkpoint)")
        if self.params["clusters"] == self.name:
            raise ValueError("the entailment backend needs another backend's clusters")
        # the registry imports this module lazily; get_backend would wait on its own lock,
        # which the registry holds while it builds this backend
        from modelserve.backends import BACKENDS, UnknownBackend, backend_class

        if self.params["clusters"] not in BACKENDS:
            raise UnknownBackend(f"unknown clustering backend {self.params['clusters']!r}")
        self.clusterer = backend_class(str(self.params["clusters"]))(
            dict(self.params["clusters_params"] or {})
        )
        self.device = pick_device(self.params["device"])
        self.tokenizer, self.model = _load(self.params["nli_model"], self.device)
        config = self.model.config
        self.entailment = entailment_index(
            {int(k): v for k, v in (config.id2label or {}).items()}, int(config.num_labels)
        )
        self.separator = str(self.tokenizer.sep_token)

    @torch.inference_mode()
    def entailment_scores(self, premises: list[str], hypotheses: list[str]) -> tuple[Any, Any]:
        """(entailment probability, arg-max class) per premise/hypothesis pair."""
        scores, predictions = [], []
        size = max(1, int(self.params["batch_size"]))
        for start in range(0, len(premises), size):
            texts = [
                p + self.separator + self.separator + h
                for p, h in zip(
                    premises[start : start + size], hypotheses[start : start + size], strict=True
                )
            ]
            encoding = self.tokenizer(texts, padding=True, truncation=True, return_tensors="pt").to(
                self.device
            )
            logits = self.model(
                input_ids=encoding["input_ids"], attention_mask=encoding["attention_mask"]
            ).logits
            probabilities = torch.softmax(logits.float(), dim=1).cpu()
            scores.append(probabilities[:, self.entailment])
            predictions.append(torch.argmax(probabilities, dim=1))
        if not scores:
            return np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.int64)
        return torch.cat(scores).numpy(), torch.cat(predictions).numpy()

    def suggest(self, topic: TopicData, *, progress: Progress = no_progress) -> Suggestions:
        clustered = self.clusterer.suggest(topic)
        clusters = [c.mentions for c in clustered.clusters]
        progress(0.3, f"{len(clusters)} clusters from {self.params['clusters']}")
        strings = cluster_strings(
            topic, clusters, int(self.params["sample"]), int(self.params["seed"])
        )
        ordered = [(a, b) for a in range(len(clusters)) for b in range(len(clusters)) if a != b]
        scores, predictions = self.entailment_scores(
            [strings[a] for a, _ in ordered], [strings[b] for _, b in ordered]
        )
        candidates = [
            (a, b, np.float32(scores[k]))
            for k, (a, b) in enumerate(ordered)
            if predictions[k] == self.entailment
        ]
        relations = greedy_relations(candidates, highest_first=self.params["decoding"] == "paper")
        progress(1.0, "done")
        return Suggestions(
            clusters=clustered.clusters,
            edges=[EdgeSuggestion(parent=p, child=c, score=s) for p, c, s in relations],
        )


def _load(path: str | Path, device: torch.device) -> tuple[Any, Any]:
    """Tokenizer and model from local files only, once per process and device while they stay
    in the bounded cache (loaded_models.py)."""
    resolved = str(Path(path).expanduser().resolve())

    def load() -> tuple[Any, Any]:
        tokenizer = AutoTokenizer.from_pretrained(resolved, local_files_only=True)
        model = AutoModelForSequenceClassification.from_pretrained(resolved, local_files_only=True)
        return tokenizer, model.to(device).eval()

    return _LOADED.get((resolved, str(device)), load)
