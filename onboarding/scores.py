"""Scores and diff of an annotator's annotation against gold (pure: two states in, JSON out).

Scores are the agreement report's metrics (corefscore.scoring.evaluate.IAA_METRICS),
computed for the pair (gold as key, the annotator as response): the same numbers the
agreement report would show for that pair. The diff names what differs the way the
workspace shows it, and carries the annotator's mention and cluster ids so that each entry
is a click away.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from annotation.domain.state import AnnotationState
from corefscore.scoring import evaluate
from corefscore.scoring.plain import TopicAnnotation, mention_key

# The metrics a project's qualification may set thresholds on, per scheme.
METRICS: dict[str, tuple[str, ...]] = {
    scheme: tuple(spec.name for spec in specs) for scheme, specs in evaluate.IAA_METRICS.items()
}

Key = tuple[int, tuple[tuple[int, int], ...]]
Text = Callable[[Key], str]


def _active(state: AnnotationState, documents: dict[int, int]) -> dict[int, Key]:
    """Mention id -> its key (document index, spans), for mentions not rejected."""
    return {
        m.id: mention_key(documents[m.document], m.spans)
        for m in state.mentions.values()
        if not m.rejected
    }


# Metrics that measure what gold may not have at all: without it they are not scored (None,
# "not scored" on screen), not 0.0 next to "the same as gold" (a tutorial without hierarchy).
NEEDS_GOLD_EDGES = ("hierarchy_f1", "hierarchy_50_f1", "path_ratio")
NEEDS_GOLD_LINKS = ("relation_exact_f1", "relation_relaxed_f1", "alpha_relations")


def unsupported(gold: TopicAnnotation) -> set[str]:
    """The metrics this gold cannot support."""
    missing: set[str] = set()
    if not gold.relations:
        missing.update(NEEDS_GOLD_EDGES)
    if not gold.links:
        missing.update(NEEDS_GOLD_LINKS)
    return missing


def scores(gold: TopicAnnotation, mine: TopicAnnotation, schemes: list[str]) -> dict[str, Any]:
    """metric -> score (None where undefined, or where gold cannot support it), for the
    project's schemes ("scico", "chemu")."""
    result: dict[str, Any] = {}
    skip = unsupported(gold)
    for scheme in schemes:
        pair = evaluate.pair(scheme, gold, mine, keep_singletons=False)
        for spec in evaluate.IAA_METRICS[scheme]:
            result[spec.name] = None if spec.name in skip else spec.score(spec.extract(pair))
    return result


def passes(values: dict[str, Any], thresholds: dict[str, float]) -> bool | None:
    """Whether every threshold holds (a metric without a score fails); None: no threshold."""
    if not thresholds:
        return None
    return all(
        values.get(metric) is not None and values[metric] >= minimum
        for metric, minimum in thresholds.items()
    )


def _groups(state: AnnotationState, keys: dict[int, Key]) -> dict[Key, tuple[int, frozenset]]:
    """Mention key -> (its cluster id, the keys of that cluster's members)."""
    result: dict[Key, tuple[int, frozenset]] = {}
    for cluster in state.clusters.values():
        members = frozenset(keys[m] for m in cluster.members if m in keys)
        for key in members:
            result[key] = (cluster.id, members)
    return result


def diff(gold: AnnotationState, mine: AnnotationState, documents: dict[int, int], text: Text):
    """What is wrong in the annotator's annotation, without gold's answer: how many mentions
    are clustered differently, which of *their* clusters mix mentions gold keeps apart or
    miss mentions gold puts with theirs (named by their own label), and their hierarchy
    edges and links that gold lacks. What gold has and they lack is only counted: listing
    gold's members, edges or links would let an annotator copy the answer into the next
    attempt (docs/onboarding.md, "The gate cannot be copied"). Ids are the annotator's."""
    gold_keys, my_keys = _active(gold, documents), _active(mine, documents)
    gold_groups, my_groups = _groups(gold, gold_keys), _groups(mine, my_keys)

    def gold_of(key: Key) -> frozenset:
        # A mention alone in its cluster and a mention in none are alike (scores leave
        # singletons out).
        return gold_groups[key][1] if key in gold_groups else frozenset({key})

    def same(key: Key) -> bool:
        return (my_groups[key][1] if key in my_groups else frozenset({key})) == gold_of(key)

    wrong = [
        key for key in sorted(set(gold_keys.values()) | set(my_keys.values())) if not same(key)
    ]
    clusters = []
    for cluster in sorted(mine.clusters.values(), key=lambda c: min(c.members, default=0)):
        members = frozenset(my_keys[m] for m in cluster.members if m in my_keys)
        if not members or all(same(key) for key in members):
            continue
        # Gold's cluster of each member (a mention gold clusters nowhere is its own).
        theirs = {
            gold_groups[key][1] if key in gold_groups else frozenset({key}) for key in members
        }
        clusters.append(
            {
                "cluster": cluster.id,
                "label": cluster.label,
                "size": len(members),
                "mixed": len(theirs) > 1,
                "split": any(not group <= members for group in theirs),
                "mention": min(m for m in cluster.members if m in my_keys),
            }
        )
    unclustered = sum(1 for key in wrong if key in gold_groups and key not in my_groups)

    def edges(state: AnnotationState, keys: dict[int, Key]) -> dict[tuple, tuple[int, int]]:
        members = {
            c.id: frozenset(keys[m] for m in c.members if m in keys)
            for c in state.clusters.values()
        }
        return {(members[p], members[c]): (p, c) for p, c in state.edges}

    gold_edges, my_edges = edges(gold, gold_keys), edges(mine, my_keys)

    def edge_entry(ids: tuple[int, int]) -> dict:
        parent, child = ids
        members = sorted(mine.clusters[child].members)
        return {
            "parent": mine.clusters[parent].label,
            "child": mine.clusters[child].label,
            "cluster": child,
            "mention": members[0] if members else None,
        }

    def links(state: AnnotationState, keys: dict[int, Key]) -> dict[tuple, Any]:
        return {
            (link.type, keys[link.anaphor], keys[link.antecedent]): link
            for link in state.links
            if link.anaphor in keys and link.antecedent in keys
        }

    gold_links, my_links = links(gold, gold_keys), links(mine, my_keys)

    def link_entry(link: tuple) -> dict:
        type, anaphor, antecedent = link
        return {
            "type": type,
            "anaphor": text(anaphor),
            "antecedent": text(antecedent),
            "mention": my_links[link].anaphor,
        }

    return {
        "mentions_wrong": len(wrong),
        "unclustered": unclustered,
        "clusters": clusters,
        "missing_edges": len(gold_edges.keys() - my_edges.keys()),
        "extra_edges": [
            edge_entry(my_edges[e]) for e in sorted(my_edges.keys() - gold_edges.keys(), key=str)
        ],
        "missing_links": len(gold_links.keys() - my_links.keys()),
        "extra_links": [link_entry(link) for link in sorted(my_links.keys() - gold_links.keys())],
    }
