"""A large topic for the domain operations, and operations that reach across all of it:
1,000 mentions in 40 documents, 500 clusters, a hierarchy 250 clusters deep plus a bushy
part. Shared by the behaviour test beside it and `python -m bench domain`, which times them."""

from __future__ import annotations

from annotation.domain.state import AnnotationState, Cluster, Mention, Settings


def large_topic(single_parent: bool) -> AnnotationState:
    mentions = {id: Mention(id, id % 40, ((2 * (id // 40), 2 * (id // 40)),)) for id in range(1000)}
    clusters = {c: Cluster(c, f"c{c}", members={2 * c, 2 * c + 1}) for c in range(500)}
    edges = {(c, c + 1) for c in range(249)}  # a chain 250 deep
    edges |= {((c - 250) // 3 + 100, c) for c in range(250, 500)}  # a bushy part under it
    if not single_parent:
        edges |= {(c - 1, c) for c in range(251, 500, 7) if (c - 1, c) not in edges}
    return AnnotationState(
        settings=Settings(single_parent=single_parent, anaphora=True, allow_reject_mentions=True),
        documents={d: 100 for d in range(40)},
        mentions=mentions,
        clusters=clusters,
        edges=edges,
    )


OPERATIONS = {  # name -> (operation, "applied" or the refusal's code)
    "assign": ({"op": "assign", "mention": 2 * 120, "cluster": 7}, "applied"),
    "merge closing a cycle 250 deep": ({"op": "merge", "source": 248, "target": 3}, "cycle"),
    "merge closing a cycle through the bush": (
        {"op": "merge", "source": 30, "target": 400},
        "cycle",
    ),
    "merge of siblings": ({"op": "merge", "source": 401, "target": 402}, "applied"),
    "set_parent under a deep descendant": (
        {"op": "set_parent", "child": 5, "parent": 499},
        "cycle",
    ),
    "set_parent deep": ({"op": "set_parent", "child": 499, "parent": 248}, "applied"),
    "split emptying a cluster with children": (
        {"op": "split", "mentions": [2 * 200, 2 * 200 + 1, 2 * 300]},
        "applied",
    ),
    "add_link": (
        {"op": "add_link", "type": "COREFERENCE", "anaphor": 45, "antecedent": 5},
        "applied",
    ),
    "reject_mention": ({"op": "reject_mention", "mention": 999}, "applied"),
}
