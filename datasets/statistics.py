"""Corpus statistics of a dataset, the figures of a dataset paper's first table.

Pure Python over `TopicData` (what the selectors build from the database and what the format
readers return), so a count made from exported files and one made from the database are the
same function. The definitions, and the paper tables they reproduce, are in docs/datasets.md.

`topic_statistics` counts one topic's annotation; `summarize` adds topics up into the STATS
object of `dataset_stats --json`, every key present (0 where a scheme does not apply).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from annotation.domain.corpus import LINK_TYPES, TopicData

COUNT_KEYS = (
    "topics",
    "documents",
    "tokens",
    "mentions",
    "discontinuous_mentions",
    "clusters",
    "singletons",
    "relations",
)
STATS_KEYS = (*COUNT_KEYS, "mean_components", "mean_max_depth", "links", "anaphors")
# Means are rounded so that a statistics file reads the same on every machine.
MEAN_DIGITS = 4


@dataclass(frozen=True)
class TopicStatistics:
    external_id: str
    documents: int
    tokens: int
    mentions: int
    discontinuous_mentions: int
    cluster_sizes: tuple[int, ...]
    relations: int
    components: int
    max_depth: int
    links: dict[str, int] = field(default_factory=dict)
    anaphors: int = 0

    @property
    def clusters(self) -> int:
        return len(self.cluster_sizes)

    @property
    def singletons(self) -> int:
        return sum(1 for size in self.cluster_sizes if size == 1)


def topic_statistics(topic: TopicData, *, tokens: int | None = None) -> TopicStatistics:
    """One topic's figures. `tokens` overrides the count from the documents' tokens (the
    selectors read token counts without loading the tokens themselves)."""
    members = topic.cluster_members()
    clusters = list(members)
    edges = list(dict.fromkeys(topic.relations))
    links = {(link.type, link.anaphor, link.antecedent) for link in topic.links}
    per_type = Counter(type for type, _, _ in links)
    components = hierarchy_components(clusters, edges)
    return TopicStatistics(
        external_id=topic.external_id,
        documents=len(topic.documents),
        tokens=sum(len(d.tokens) for d in topic.documents) if tokens is None else tokens,
        mentions=len(topic.mentions),
        discontinuous_mentions=sum(1 for m in topic.mentions if len(m.spans) > 1),
        cluster_sizes=tuple(len(indices) for indices in members.values()),
        relations=len(edges),
        components=len(components),
        max_depth=largest_component_depth(components, edges),
        links={type: per_type.get(type, 0) for type in LINK_TYPES},
        anaphors=len({anaphor for _, anaphor, _ in links}),
    )


def hierarchy_components(
    clusters: Sequence[str], edges: Sequence[tuple[str, str]]
) -> list[list[str]]:
    """The connected components of the graph of clusters joined by hierarchy edges taken as
    undirected, each in cluster order, the components in order of their first cluster. An
    edge naming a cluster without mentions still joins (and adds) that cluster."""
    nodes = list(dict.fromkeys([*clusters, *(end for edge in edges for end in edge)]))
    parent = {node: node for node in nodes}

    def root(node: str) -> str:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for a, b in edges:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[rb] = ra
    grouped: dict[str, list[str]] = {}
    for node in nodes:
        grouped.setdefault(root(node), []).append(node)
    return list(grouped.values())


def component_depth(component: Sequence[str], edges: Sequence[tuple[str, str]]) -> int:
    """Levels of a component: clusters on its longest parent-to-child path (a lone cluster is
    1). With several parents per cluster the longest path counts. Edges are assumed acyclic
    (the domain refuses cycles); a cycle in imported data is cut where it closes."""
    inside = set(component)
    children: dict[str, list[str]] = {}
    for parent, child in edges:
        if parent in inside and child in inside:
            children.setdefault(parent, []).append(child)
    levels: dict[str, int] = {}
    for start in component:
        # Iterative depth-first search: hierarchies of imported data can be deep.
        stack: list[tuple[str, int]] = [(start, 0)]
        on_path: set[str] = set()
        while stack:
            node, state = stack.pop()
            if state == 0:
                if node in levels or node in on_path:
                    continue
                on_path.add(node)
                stack.append((node, 1))
                for child in children.get(node, []):
                    if child not in levels and child not in on_path:
                        stack.append((child, 0))
            else:
                on_path.discard(node)
                below = [levels[c] for c in children.get(node, []) if c in levels]
                levels[node] = 1 + max(below, default=0)
    return max(levels.values(), default=0)


def largest_component_depth(
    components: Sequence[Sequence[str]], edges: Sequence[tuple[str, str]]
) -> int:
    """The depth of the component with the most clusters; a tie goes to the deeper one. 0
    for a topic without clusters."""
    best = (0, 0)
    for component in components:
        best = max(best, (len(component), component_depth(component, edges)))
    return best[1]


def summarize(topics: Iterable[TopicStatistics]) -> dict:
    """The STATS object: sums, the two means over topics, links per type, anaphors."""
    topics = list(topics)
    n = len(topics)
    stats: dict = {
        "topics": n,
        "documents": sum(t.documents for t in topics),
        "tokens": sum(t.tokens for t in topics),
        "mentions": sum(t.mentions for t in topics),
        "discontinuous_mentions": sum(t.discontinuous_mentions for t in topics),
        "clusters": sum(t.clusters for t in topics),
        "singletons": sum(t.singletons for t in topics),
        "relations": sum(t.relations for t in topics),
        "mean_components": _mean([t.components for t in topics]),
        "mean_max_depth": _mean([t.max_depth for t in topics]),
        "links": {type: sum(t.links.get(type, 0) for t in topics) for type in LINK_TYPES},
        "anaphors": sum(t.anaphors for t in topics),
    }
    return stats


def cluster_size_distribution(topics: Iterable[TopicStatistics]) -> dict[int, int]:
    """Cluster size -> how many clusters have it, sizes ascending."""
    sizes = Counter(size for t in topics for size in t.cluster_sizes)
    return dict(sorted(sizes.items()))


def depth_distribution(topics: Iterable[TopicStatistics]) -> dict[int, int]:
    """Depth of a topic's largest component -> how many topics have it, ascending."""
    return dict(sorted(Counter(t.max_depth for t in topics).items()))


def _mean(values: list[int]) -> float:
    return round(sum(values) / len(values), MEAN_DIGITS) if values else 0.0


def stats_rows(result: dict) -> list[list[str]]:
    """`{"total", "splits"}` as CSV rows, header first: one row per scope (total, then each
    split), links flattened to one column per type."""
    header = ["scope", *COUNT_KEYS, "mean_components", "mean_max_depth"]
    header += [f"links_{type}" for type in LINK_TYPES] + ["anaphors"]
    rows = [header]
    scopes = [("total", result["total"]), *result["splits"].items()]
    for scope, stats in scopes:
        row = [scope, *(str(stats[key]) for key in COUNT_KEYS)]
        row += [repr(float(stats["mean_components"])), repr(float(stats["mean_max_depth"]))]
        row += [str(stats["links"][type]) for type in LINK_TYPES] + [str(stats["anaphors"])]
        rows.append(row)
    return rows
