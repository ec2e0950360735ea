"""Links between the mentions of a topic from the chemu pair classifier: scoring every candidate
pair, then decoding under the ChEMU rules (TRANSFORMED one-to-one; the chains' implied
coreference links left out). The `chemu` backend and `chemu_mentions` both link through here.
"""

from __future__ import annotations

import copy

import numpy as np

from corefscore.corpus import LinkData, TopicData
from modelserve.backends import chemu_model
from modelserve.backends.base import LinkSuggestion, check_links
from modelserve.backends.chemu_features import SnippetFeatures
from modelserve.backends.chemu_model import CLASSES, ChemuModel

ONE_TO_ONE = frozenset({"TRANSFORMED"})


def score_pairs(
    model: ChemuModel, topic: TopicData, document: int = 0
) -> tuple[SnippetFeatures, list[tuple[int, int]], np.ndarray]:
    """The document's candidate pairs (text-order positions) and their class probabilities."""
    features = SnippetFeatures(topic, document)
    pairs = features.candidate_pairs()
    if not pairs:
        return features, pairs, np.zeros((0, len(CLASSES)), dtype=np.float32)
    feature_lists, numbers = zip(*(features.pair(i, j) for i, j in pairs), strict=True)
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
        row = probabilities[k]
        distribution = {name: round(float(p), 6) for name, p in zip(CLASSES, row, strict=True)}
        links.append(
            LinkSuggestion(link_type, anaphor, antecedent, round(float(scores[k]), 6), distribution)
        )
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
    reads). A link naming a mention the topic does not have (a proposed one, say) is refused
    here, where it is made, rather than by a writer that cannot know where it came from."""
    out_of_range = check_links(links, len(topic.mentions))
    if out_of_range:
        raise ValueError(
            f"topic {topic.external_id}: {out_of_range}; add the proposed mentions first "
            "(chemu_mentions.with_mentions)"
        )
    result = copy.copy(topic)
    result.links = [LinkData(link.type, link.anaphor, link.antecedent) for link in links]
    return result
