"""The `chemu` backend: typed anaphora links between the given mentions of ChEMU-style snippets.

For every anaphor candidate and every mention that starts strictly earlier in the same
document, the pair classifier (`chemu_model`, over the features of `chemu_features`) gives
the probabilities of no link and of the five link types. Decoding keeps, per pair, the most
probable type when its probability reaches the threshold, then applies the rules the editor
enforces (docs: ../shared/docs/domain.md, "Anaphora links"): TRANSFORMED is one-to-one, so
its links are taken greedily by score, skipping any whose anaphor or antecedent already has
one. Scores are the classifier's probabilities. Train a model with
`python -m modelserve.train --backend chemu`.

From raw text: when a mention tagger is trained (`chemu_mentions`, in <models dir>/
chemu-mentions), the backend also proposes the mentions the topic does not have, and its links
join existing and proposed mentions; without one, it links the existing mentions only. The
tagger is looked for at every run, so one trained after the worker started is used.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np

from annotation.domain.corpus import LinkData, TopicData
from modelserve.backends import chemu_model
from modelserve.backends.base import LinkSuggestion, Progress, Suggestions, no_progress
from modelserve.backends.chemu_features import SnippetFeatures
from modelserve.backends.chemu_model import CLASSES, ChemuModel

ONE_TO_ONE = frozenset({"TRANSFORMED"})

DEFAULTS: dict[str, Any] = {
    "model_dir": None,  # None: <models_dir()>/chemu (see modelserve.backends.models_dir_set)
    "device": "auto",
    "threshold": None,  # None: the value saved with the model
    "mentions_dir": None,  # None: <models_dir()>/chemu-mentions; mentions proposed if trained
    "propose_mentions": True,  # False: links between the existing mentions only
}


def default_model_dir() -> Path:
    from modelserve.backends import models_dir

    return models_dir() / "chemu"


def is_trained(model_dir: str | Path | None = None) -> bool:
    """Whether a complete model is saved there (what `make up` checks before training one)."""
    return chemu_model.is_complete(model_dir or default_model_dir())


def score_pairs(
    model: ChemuModel, topic: TopicData, document: int = 0
) -> tuple[SnippetFeatures, list[tuple[int, int]], np.ndarray]:
    """The document's candidate pairs (text-order positions) and their class probabilities."""
    features = SnippetFeatures(topic, document)
    pairs = features.candidate_pairs()
    if not pairs:
        return features, pairs, np.zeros((0, len(CLASSES)), dtype=np.float32)
    feature_lists, numbers = zip(*(features.pair(i, j) for i, j in pairs))
    table = chemu_model.pack(model.vocabulary, list(feature_lists), list(numbers))
    return features, pairs, chemu_model.probabilities(model.scorer, table, device=model.device)


def decode(
    pairs: list[tuple[int, int]], probabilities: np.ndarray, order: list[int], threshold: float
) -> list[LinkSuggestion]:
    """Links from pair probabilities: best type per pair if >= threshold; TRANSFORMED one-to-one;
    COREFERENCE links implied by a chain of others left out (see `_implied_by_chains`)."""
    if not pairs:
        return []
    best = probabilities[:, 1:].argmax(axis=1) + 1
    scores = probabilities[np.arange(len(pairs)), best]
    chosen = [k for k in np.flatnonzero(scores >= threshold)]
    chosen.sort(key=lambda k: (-float(scores[k]), pairs[k]))
    used: dict[str, tuple[set[int], set[int]]] = {name: (set(), set()) for name in ONE_TO_ONE}
    links = []
    for k in chosen:
        anaphor, antecedent = pairs[k]
        link_type = CLASSES[int(best[k])]
        if link_type in used:
            anaphors, antecedents = used[link_type]
            if anaphor in anaphors or antecedent in antecedents:
                continue
            anaphors.add(anaphor)
            antecedents.add(antecedent)
        links.append(LinkSuggestion(link_type, anaphor, antecedent, round(float(scores[k]), 6)))
    implied = _implied_by_chains(
        [(link.anaphor, link.antecedent) for link in links if link.type == "COREFERENCE"]
    )
    kept = [
        link
        for link in links
        if not (link.type == "COREFERENCE" and (link.anaphor, link.antecedent) in implied)
    ]
    for link in kept:  # text-order positions -> indices into topic.mentions
        link.anaphor, link.antecedent = order[link.anaphor], order[link.antecedent]
    kept.sort(key=lambda link: (link.anaphor, link.antecedent))
    return kept


def _implied_by_chains(edges: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """Coreference links a -> c that a chain a -> b -> ... -> c of the other links already gives.

    The model is trained on the transitive closure of the gold chains, so it proposes the
    closure too; annotators draw chains (each anaphor to its nearest antecedent). Leaving the
    implied links out changes nothing in scoring, which expands both sides by transitivity.
    Antecedents precede anaphors, so the links form a DAG and this is its transitive reduction.
    """
    antecedents: dict[int, set[int]] = {}
    for anaphor, antecedent in edges:
        antecedents.setdefault(anaphor, set()).add(antecedent)
    implied = set()
    for anaphor, direct in antecedents.items():
        reached: set[int] = set()
        stack = [further for step in direct for further in antecedents.get(step, ())]
        while stack:
            node = stack.pop()
            if node not in reached:
                reached.add(node)
                stack.extend(antecedents.get(node, ()))
        implied |= {(anaphor, antecedent) for antecedent in direct & reached}
    return implied


def suggest_links(
    model: ChemuModel, topic: TopicData, threshold: float | None = None
) -> list[LinkSuggestion]:
    """Links for every document of the topic (a ChEMU topic has one); indices into
    topic.mentions."""
    threshold = float(model.config["threshold"] if threshold is None else threshold)
    links: list[LinkSuggestion] = []
    for document in range(len(topic.documents)):
        features, pairs, probabilities = score_pairs(model, topic, document)
        links += decode(pairs, probabilities, features.order, threshold)
    return links


def with_links(topic: TopicData, links: list[LinkSuggestion]) -> TopicData:
    """A copy of the topic whose links are the suggested ones (what predict writes and scoring
    reads)."""
    result = copy.copy(topic)
    result.links = [LinkData(link.type, link.anaphor, link.antecedent) for link in links]
    return result


class ChemuBackend:
    name = "chemu"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        unknown = set(params or {}) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"unknown chemu-backend parameters: {sorted(unknown)}")
        self.params = {**DEFAULTS, **(params or {})}
        self.model = chemu_model.load(
            self.params["model_dir"] or default_model_dir(), self.params["device"]
        )
        if self.model.device.type == "cpu":
            chemu_model.limit_cpu_threads()

    def suggest(self, topic: TopicData, *, progress: Progress = no_progress) -> Suggestions:
        from modelserve.backends import chemu_mentions

        mentions_dir = self.params["mentions_dir"] or chemu_mentions.default_mentions_dir()
        if self.params["propose_mentions"] and chemu_mentions.mentions_trained(mentions_dir):
            progress(0.0, "finding mentions")
            tagger = chemu_mentions.load_mentions(mentions_dir, self.model.device)
            found = chemu_mentions.suggest_from_text(
                tagger, self.model, topic, self.params["threshold"]
            )
            progress(1.0, f"{len(found.mentions)} mentions, {len(found.links)} links")
            return found
        progress(0.0, "scoring mention pairs")
        links = suggest_links(self.model, topic, self.params["threshold"])
        progress(1.0, f"{len(links)} links")
        return Suggestions(links=links)
