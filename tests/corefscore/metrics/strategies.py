"""Hypothesis strategies: random clusterings, hierarchies and anaphora links, small enough
for the slow reference ports."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import strategies as st


@st.composite
def clusterings(draw, mentions: int = 14, clusters: int = 6, missing: bool = True):
    """A list of clusters (lists of int mentions, in cluster-id order); with ``missing``, some
    mentions of the universe are in no cluster."""
    universe = draw(st.integers(0, mentions))
    assignment = {}
    for mention in range(universe):
        cluster = draw(st.integers(-1 if missing else 0, clusters - 1))
        if cluster >= 0:
            assignment.setdefault(cluster, []).append(mention)
    return [assignment[c] for c in sorted(assignment)]


def _scico_side(draw, n: int, clusters: int, relations: int, repeats: bool):
    """Cluster id per mention and acyclic relations between clusters that have mentions
    (parent before child in a random order of the clusters)."""
    cluster_ids = [draw(st.integers(0, clusters - 1)) for _ in range(n)]
    used = sorted(set(cluster_ids))
    order = draw(st.permutations(used))
    rank = {c: i for i, c in enumerate(order)}
    candidates = [(a, b) for a in used for b in used if rank[a] < rank[b]]
    if not candidates:
        return cluster_ids, []
    return cluster_ids, draw(
        st.lists(st.sampled_from(candidates), max_size=relations, unique=not repeats)
    )


@st.composite
def scico_topic_pairs(
    draw, mentions: int = 10, clusters: int = 6, relations: int = 7, repeats: bool = False
):
    """(gold, system) dicts in the SciCo jsonl shape, sharing one mention list."""
    n = draw(st.integers(1, mentions))
    sides = []
    for _ in range(2):
        cluster_ids, chosen = _scico_side(draw, n, clusters, relations, repeats)
        sides.append(
            {
                "mentions": [[0, i, i, cluster_ids[i]] for i in range(n)],
                "relations": [[a, b] for a, b in chosen],
            }
        )
    return sides[0], sides[1]


@st.composite
def chain_heavy_topic_pairs(draw, clusters: int = 7, mentions: int = 12):
    """(gold, system) SciCo dicts whose hierarchies are mostly long chains: the gold chains
    its clusters in a random order (with a few extra edges), the system keeps a random part
    of those edges and adds a few of its own, so that closures are deep and differ."""
    n = draw(st.integers(2, mentions))
    cluster_ids = [draw(st.integers(0, clusters - 1)) for _ in range(n)]
    used = sorted(set(cluster_ids))
    order = draw(st.permutations(used))
    rank = {c: i for i, c in enumerate(order)}
    chain = [[a, b] for a, b in pairwise(order)]
    forward = [[a, b] for a in used for b in used if rank[a] < rank[b]]
    extra = draw(st.lists(st.sampled_from(forward), max_size=2)) if forward else []
    gold = chain + [r for r in extra if r not in chain]
    kept = [r for r in gold if draw(st.booleans())]
    added = draw(st.lists(st.sampled_from(forward), max_size=2)) if forward else []
    system = kept + [r for r in added if r not in kept]
    other_ids = [
        c if draw(st.integers(0, 4)) else draw(st.integers(0, clusters - 1)) for c in cluster_ids
    ]
    system_used = set(other_ids)
    system = [r for r in system if r[0] in system_used and r[1] in system_used]

    def topic(ids: list[int], relations: list[list[int]]) -> dict:
        return {"mentions": [[0, i, i, ids[i]] for i in range(n)], "relations": relations}

    return topic(cluster_ids, gold), topic(other_ids, system)


def mention(draw, documents: int = 2, length: int = 12, discontinuous: bool = True):
    document = draw(st.integers(0, documents - 1))
    start = draw(st.integers(0, length - 1))
    end = draw(st.integers(start, min(length - 1, start + 3)))
    spans = [(start, end)]
    if discontinuous and end + 2 < length and draw(st.booleans()):
        second = draw(st.integers(end + 2, length - 1))
        spans.append((second, draw(st.integers(second, min(length - 1, second + 2)))))
    return (document, tuple(spans))


@st.composite
def mention_lists(draw, size: int = 10, documents: int = 2, length: int = 12):
    return [mention(draw, documents, length) for _ in range(draw(st.integers(0, size)))]


TYPES = ("COREFERENCE", "TRANSFORMED", "REACTION_ASSOCIATED", "WORK_UP", "CONTAINED")


@st.composite
def link_sets(draw, size: int = 10, pool: int = 8, length: int = 16):
    """Typed links over a small pool of mentions (so chains and overlaps are common)."""
    mentions = [mention(draw, 1, length) for _ in range(draw(st.integers(1, pool)))]
    links = []
    for _ in range(draw(st.integers(0, size))):
        kind = draw(st.sampled_from(TYPES))
        anaphor, antecedent = draw(st.sampled_from(mentions)), draw(st.sampled_from(mentions))
        if anaphor != antecedent:
            links.append((kind, anaphor, antecedent))
    return links
