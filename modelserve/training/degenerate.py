"""Whether a version's suggestions on the held-out topics are degenerate: one class for every
pair of mentions (every mention alone, or all in one cluster), where the gold has more than
one. Such a version never serves on its own (docs/learning.md): a model that proposes every
mention as its own cluster scores its singletons at 1.00, so "accept above 0.80" would take
them all.

A pair's class: for clusters, "coreferent" (same cluster), "parent" / "child" (a relation
between their clusters) or "unrelated"; for anaphora, the type of a link between the two
mentions (either way) or "unlinked". Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from corefscore.corpus import TopicData

DESCRIBED = {
    "unrelated": "every mention alone",
    "unlinked": "every mention alone (no link)",
    "coreferent": "every mention in one cluster",
}


def _cluster_pairs(topic: TopicData) -> Iterator[str]:
    keys = [m.cluster if m.cluster is not None else f"\0{i}" for i, m in enumerate(topic.mentions)]
    relations = set(topic.relations)
    for i in range(len(keys)):
        for j in range(i + 1, len(keys)):
            a, b = keys[i], keys[j]
            if a == b:
                yield "coreferent"
            elif (a, b) in relations:
                yield "parent"
            elif (b, a) in relations:
                yield "child"
            else:
                yield "unrelated"


def _link_pairs(topic: TopicData) -> Iterator[str]:
    types = {}
    for link in topic.links:
        types[frozenset((link.anaphor, link.antecedent))] = link.type
    for i in range(len(topic.mentions)):
        for j in range(i + 1, len(topic.mentions)):
            yield types.get(frozenset((i, j)), "unlinked")


def pair_classes(topics: Sequence[TopicData], *, links: bool) -> set[str]:
    pairs = _link_pairs if links else _cluster_pairs
    return {kind for topic in topics for kind in pairs(topic)}


def degenerate(gold: Sequence[TopicData], predicted: Sequence[TopicData], *, links: bool) -> str:
    """What is degenerate about the prediction ("every mention alone"), "" when nothing."""
    said = pair_classes(predicted, links=links)
    if len(said) != 1 or len(pair_classes(gold, links=links)) < 2:
        return ""
    (only,) = said
    return DESCRIBED.get(only, f"one class ({only}) for every pair")
