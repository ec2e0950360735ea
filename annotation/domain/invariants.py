"""What must hold of every annotation state, checked in one pass (O(size of the state)).

The operations keep these true; `invariant_violations` lets tests, imports and a service
that loads a state from the database verify it.
"""

from __future__ import annotations

from collections import Counter, deque
from itertools import pairwise

from corefscore.corpus import LINK_TYPES, Spans
from corefscore.link_rules import ORDER, SAME_DOCUMENT, SELF_LINK, pair_rule

from .state import DECISIONS, AnnotationState, Link


def invariant_violations(state: AnnotationState) -> list[str]:
    """Human-readable descriptions of every broken invariant; empty when the state is sound."""
    problems: list[str] = []
    problems += _mention_problems(state)
    problems += _cluster_problems(state)
    problems += _edge_problems(state)
    problems += _link_problems(state)
    problems += [
        f"suggestion #{s}: unknown decision {d!r}"
        for s, d in state.decisions.items()
        if d not in DECISIONS
    ]
    return problems


def _mention_problems(state: AnnotationState) -> list[str]:
    problems = []
    active: Counter[tuple[int, Spans]] = Counter()
    for mention in state.mentions.values():
        tokens = state.documents.get(mention.document)
        if tokens is None:
            problems.append(f"mention #{mention.id}: no document #{mention.document}")
            continue
        spans = mention.spans
        if not spans or any(not 0 <= s <= e < tokens for s, e in spans):
            problems.append(
                f"mention #{mention.id}: spans {spans} outside the document or reversed"
            )
        if any(b[0] <= a[1] for a, b in pairwise(spans)):
            problems.append(f"mention #{mention.id}: spans {spans} unsorted or overlapping")
        if not mention.rejected:
            active[(mention.document, spans)] += 1
    # Identical spans are one mention, except stacked chains (INCEpTION: one span a link of
    # several chains, docs/formats.md): then each is in a cluster, and no two in the same one.
    problems += [
        f"{n} active mentions share document #{d} spans {s}"
        for (d, s), n in active.items()
        if n > 1 and not _stacked(state, d, s)
    ]
    at: dict[tuple[int, Spans], set[int]] = {}
    for mention in state.mentions.values():
        at.setdefault((mention.document, mention.spans), set()).add(mention.id)
    if at != state.mentions_at:
        problems.append("the spans -> mentions index disagrees with the mentions")
    return problems


def _stacked(state: AnnotationState, document: int, spans: Spans) -> bool:
    """Whether the active mentions on these spans are each in a cluster, all different."""
    active = [
        m for m in state.mentions_at.get((document, spans), ()) if not state.mentions[m].rejected
    ]
    clusters = [state.mention_cluster.get(m) for m in active]
    return None not in clusters and len(set(clusters)) == len(clusters)


def _cluster_problems(state: AnnotationState) -> list[str]:
    problems = []
    seen: dict[int, int] = {}
    for cluster in state.clusters.values():
        if not cluster.members:
            problems.append(f"cluster #{cluster.id} is empty")
        for mention in cluster.members:
            if mention in seen:
                problems.append(
                    f"mention #{mention} is in clusters #{seen[mention]} and #{cluster.id}"
                )
            seen[mention] = cluster.id
            if mention not in state.mentions:
                problems.append(f"cluster #{cluster.id} holds the unknown mention #{mention}")
            elif state.mentions[mention].rejected:
                problems.append(f"rejected mention #{mention} is in cluster #{cluster.id}")
    if seen != state.mention_cluster:
        problems.append("the mention -> cluster index disagrees with the clusters' members")
    return problems


def _edge_problems(state: AnnotationState) -> list[str]:
    problems = []
    for parent, child in state.edges:
        if parent not in state.clusters or child not in state.clusters:
            problems.append(f"edge #{parent} -> #{child} touches a missing cluster")
        if parent == child:
            problems.append(f"self-loop on cluster #{parent}")
    if problems:
        return problems
    parents: dict[int, set[int]] = {id: set() for id in state.clusters}
    children: dict[int, set[int]] = {id: set() for id in state.clusters}
    for parent, child in state.edges:
        parents[child].add(parent)
        children[parent].add(child)
    if parents != state.parents or children != state.children:
        problems.append("the parent/child indexes disagree with the edges")
    if state.settings.single_parent:
        problems += [
            f"cluster #{id} has several parents" for id, ps in parents.items() if len(ps) > 1
        ]
    # Kahn's algorithm: every cluster is removed iff the hierarchy is acyclic.
    indegree = {id: len(ps) for id, ps in parents.items()}
    queue = deque(id for id, n in indegree.items() if n == 0)
    removed = 0
    while queue:
        id = queue.popleft()
        removed += 1
        for child in children[id]:
            indegree[child] -= 1
            if indegree[child] == 0:
                queue.append(child)
    if removed != len(state.clusters):
        problems.append("the hierarchy has a cycle")
    return problems


_PAIR_PROBLEMS = {
    SELF_LINK: "links a mention to itself",
    SAME_DOCUMENT: "crosses documents",
    ORDER: "antecedent not earlier than anaphor",
}


def _link_problems(state: AnnotationState) -> list[str]:
    problems = []
    transformed_anaphors: Counter[int] = Counter()
    transformed_antecedents: Counter[int] = Counter()
    for link in state.links:
        name = f"link {link.type} #{link.anaphor} -> #{link.antecedent}"
        anaphor, antecedent = state.mentions.get(link.anaphor), state.mentions.get(link.antecedent)
        if link.type not in LINK_TYPES:
            problems.append(f"{name}: unknown type")
        if anaphor is None or antecedent is None:
            problems.append(f"{name}: missing mention")
            continue
        if anaphor.rejected or antecedent.rejected:
            problems.append(f"{name}: touches a rejected mention")
        rule = pair_rule(link, anaphor, antecedent)
        if rule is not None:
            problems.append(f"{name}: {_PAIR_PROBLEMS[rule]}")
        if link.type == "TRANSFORMED":
            transformed_anaphors[link.anaphor] += 1
            transformed_antecedents[link.antecedent] += 1
    problems += [
        f"mention #{m} is the anaphor of several TRANSFORMED links"
        for m, n in transformed_anaphors.items()
        if n > 1
    ]
    problems += [
        f"mention #{m} is the antecedent of several TRANSFORMED links"
        for m, n in transformed_antecedents.items()
        if n > 1
    ]
    index: dict[int, set[Link]] = {id: set() for id in state.mentions}
    for link in state.links:
        for id in (link.anaphor, link.antecedent):
            if id in index:
                index[id].add(link)
    if index != state.mention_links:
        problems.append("the mention -> links index disagrees with the links")
    return problems
