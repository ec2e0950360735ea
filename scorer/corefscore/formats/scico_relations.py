"""SciCo relations (``[parent_cluster, child_cluster]``): their check, duplicates and cycles."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from corefscore.formats._io import is_int, json_type
from corefscore.formats.graph import find_cycles


def parse_relations(
    value: Any,
    cluster_order: list[str],
    error: Callable[[str | None, str], None],
    warn: Callable[[str | None, str], None],
) -> list[tuple[str, str]]:
    """The ``(parent, child)`` cluster keys of the topic's ``relations`` field (``value``),
    each once; what is wrong goes to ``error(field, message)`` (a repeated relation included),
    what is merely odd to ``warn``."""
    if not isinstance(value, list):
        error("relations", f"must be a list of [parent, child], not {json_type(value)}")
        return []
    clusters = set(cluster_order)
    relations: list[tuple[str, str]] = []
    first_index: dict[tuple[str, str], int] = {}
    for r, relation in enumerate(value):
        field = f"relations[{r}]"
        if (
            isinstance(relation, list)
            and len(relation) <= 2
            and (len(relation) < 2 or any(x is None or x == "" for x in relation))
        ):
            sides = [
                side
                for i, side in enumerate(("parent", "child"))
                if i >= len(relation) or relation[i] in (None, "")
            ]
            error(field, f"the {' and '.join(sides)} side is empty: {json.dumps(relation)}")
            continue
        if not (
            isinstance(relation, list)
            and len(relation) == 2
            and all(is_int(x) or isinstance(x, str) for x in relation)
        ):
            error(field, f"must be [parent_cluster, child_cluster], not {json.dumps(relation)}")
            continue
        parent, child = str(relation[0]), str(relation[1])
        unknown = [
            (position, cid) for position, cid in ((0, parent), (1, child)) if cid not in clusters
        ]
        for position, cid in unknown:
            error(f"{field}[{position}]", f"cluster {cid} is not the cluster of any mention")
        if unknown:
            continue
        if parent == child:
            error(field, f"cluster {parent} is its own parent")
            continue
        if (parent, child) in first_index:
            # Refused rather than kept once: SciCo's released eval/hypernym.py counts a repeat
            # twice (its relations are a list), a project stores each edge once (edge_unique),
            # so a file with one would score differently in SciCo's code, on our command line
            # and once imported (docs/scoring.md, "Repeated hierarchy relations").
            first = first_index[(parent, child)]
            error(
                field,
                f"repeats relations[{first}] ({parent} -> {child}): SciCo's scorer would "
                "count it twice, a project keeps it once; remove the repeat",
            )
            continue
        first_index[(parent, child)] = r
        relations.append((parent, child))
    for cycle in find_cycles(relations):
        error("relations", "cycle in the hierarchy: " + " -> ".join(cycle + [cycle[0]]))
    return relations
