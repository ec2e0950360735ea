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

from annotation.domain.heads import head_lemma
from corefscore.corpus import LINK_TYPES, TopicData
from corefscore.formats.chemu import link_entries

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
# Added after the first release of the STATS object, so they come last in the CSV: ChEMU Table
# 1's sentences and tokens per sentence, WEC Table 1's Ambiguity and Diversity.
LATER_KEYS = ("sentences", "tokens_per_sentence", "ambiguity", "diversity")
# ChEMU Table 1's relation rows: the link entries as the file lists them.
STATS_KEYS = (
    *COUNT_KEYS,
    "mean_components",
    "mean_max_depth",
    "links",
    "anaphors",
    *LATER_KEYS,
    "link_entries",
)
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
    sentences: int = 0
    # head lemma -> clusters of this topic holding a mention with it (WEC's Ambiguity)
    lemma_clusters: dict[str, int] = field(default_factory=dict)
    # distinct head lemmas of each cluster of two or more mentions (WEC's Diversity)
    cluster_lemmas: tuple[int, ...] = ()
    # link entries per type as the file lists them: links, and ChEMU-Ref's held entries
    link_entries: dict[str, int] = field(default_factory=dict)

    @property
    def clusters(self) -> int:
        return len(self.cluster_sizes)

    @property
    def singletons(self) -> int:
        return sum(1 for size in self.cluster_sizes if size == 1)


def topic_statistics(
    topic: TopicData, *, tokens: int | None = None, sentences: int | None = None
) -> TopicStatistics:
    """One topic's figures. `tokens` and `sentences` override the counts from the documents
    (the selectors read them without loading the tokens themselves). Head lemmas need the
    tokens: without them a topic has none (Ambiguity and Diversity count nothing)."""
    members = topic.cluster_members()
    lemma_clusters, cluster_lemmas = head_lemma_figures(topic, members)
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
        sentences=document_sentences(topic) if sentences is None else sentences,
        lemma_clusters=lemma_clusters,
        cluster_lemmas=cluster_lemmas,
        link_entries=dict(link_entries(topic)),
    )


def document_sentences(topic: TopicData) -> int:
    """Sentences of the topic's documents: the boundaries each document was imported with
    (ChEMU: the jsonlines' `sentences`); a document imported without any counts as one
    sentence if it has tokens (docs/datasets.md)."""
    return sum(len(d.sentences) or (1 if d.tokens else 0) for d in topic.documents)


def head_lemma_figures(
    topic: TopicData, members: dict[str, list[int]]
) -> tuple[dict[str, int], tuple[int, ...]]:
    """(head lemma -> clusters holding it, distinct head lemmas per non-singleton cluster),
    the head rule of annotation/domain/heads.py. A mention without a head word is left out."""
    per_cluster: list[set[str]] = []
    for indices in members.values():
        lemmas = set()
        for index in indices:
            mention = topic.mentions[index]
            words = topic.documents[mention.document].tokens
            if not words:  # read without its tokens (the scoring read)
                continue
            lemma = head_lemma([words[w] for a, b in mention.spans for w in range(a, b + 1)])
            if lemma is not None:
                lemmas.add(lemma)
        per_cluster.append(lemmas)
    lemma_clusters = Counter(lemma for lemmas in per_cluster for lemma in lemmas)
    diversity = tuple(
        len(lemmas)
        for lemmas, indices in zip(per_cluster, members.values(), strict=True)
        if len(indices) > 1 and lemmas
    )
    return dict(lemma_clusters), diversity


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
    """The STATS object: sums, the two means over topics, links per type, anaphors, then
    sentences, tokens per sentence, Ambiguity and Diversity."""
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
        **sentence_figures(topics),
        **lemma_figures(topics),
        "link_entries": {
            type: sum(t.link_entries.get(type, 0) for t in topics) for type in LINK_TYPES
        },
    }
    return stats


def sentence_figures(topics: Iterable[TopicStatistics]) -> dict:
    """ChEMU Table 1's Sentences and Tokens/Sentences (tokens over sentences of the scope)."""
    topics = list(topics)
    sentences = sum(t.sentences for t in topics)
    tokens = sum(t.tokens for t in topics)
    return {
        "sentences": sentences,
        "tokens_per_sentence": round(tokens / sentences, MEAN_DIGITS) if sentences else 0.0,
    }


def lemma_figures(topics: Iterable[TopicStatistics]) -> dict:
    """WEC Table 1: Ambiguity, "the average number of different clusters in which a head
    lemma appears", over the head lemmas of the scope (clusters of different topics are
    different clusters, so a lemma's count adds up over topics; singletons included, as WEC
    excludes them only from Diversity); Diversity, "the average number of unique head lemmas
    within a cluster (excluding singletons)"."""
    topics = list(topics)
    per_lemma: Counter[str] = Counter()
    for t in topics:
        per_lemma.update(t.lemma_clusters)
    diversity = [n for t in topics for n in t.cluster_lemmas]
    return {
        "ambiguity": _mean(list(per_lemma.values())),
        "diversity": _mean(diversity),
    }


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
    header += [f"links_{type}" for type in LINK_TYPES] + ["anaphors", *LATER_KEYS]
    header += [f"link_entries_{type}" for type in LINK_TYPES]
    rows = [header]
    scopes = [("total", result["total"]), *result["splits"].items()]
    for scope, stats in scopes:
        row = [scope, *(str(stats[key]) for key in COUNT_KEYS)]
        row += [repr(float(stats["mean_components"])), repr(float(stats["mean_max_depth"]))]
        row += [str(stats["links"][type]) for type in LINK_TYPES] + [str(stats["anaphors"])]
        row += [str(stats["sentences"])]
        row += [repr(float(stats[key])) for key in LATER_KEYS[1:]]
        row += [str(stats["link_entries"][type]) for type in LINK_TYPES]
        rows.append(row)
    return rows
