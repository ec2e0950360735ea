"""Anaphora relations (ChEMU 2021 overview, section 5): relation P/R/F1 and anaphor detection.

A relation is ``(type, anaphor, antecedent)`` with mention keys ``(document, spans)``.
Conventions:

- Each side's relations form a set: a repeated relation counts once (metrics.md).
- COREFERENCE is expanded by transitivity on both sides first (T1 -> T2, T2 -> T3 adds
  T1 -> T3; ChEMU 2021 section 5.2); other types are scored as annotated.
- Exact: same type and identical mentions. Relaxed: same type, overlapping anaphors and
  overlapping antecedents (a shared token); TP = maximum bipartite matching between key and
  response relations, FP = #response - TP, FN = #key - TP (section 5.1.2, "latest BRATEval";
  the greedy first-match of the READ-BioMed/brateval ``CompareRelations`` can undercount).
- Scores per type, and overall as the micro average over types (and topics): BRATEval adds
  TP/FP/FN per type over documents, then over types for "all".
- P = TP / (TP + FP), R = TP / (TP + FN), 0 when the denominator is 0; F1 = 2PR / (P + R),
  0 when P + R = 0 (BRATEval ``report``, ChEMU-Ref ``get_p_r_f1``).
- Anaphor detection: the distinct mentions that are the anaphor of a relation (any type),
  compared exactly or relaxed (overlap, maximum matching).
- A relation with an empty side names no mention and is left out before scoring; the
  caller (``corefscore.scoring.plain``) drops those.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from corefscore.corpus import LINK_TYPES
from corefscore.metrics.counts import Counts
from corefscore.metrics.matching import maximum_matching_size
from corefscore.metrics.mention_detection import (
    MentionKey,
    OverlapIndex,
    distinct,
    mention_detection_counts,
)

Relation = tuple[str, MentionKey, MentionKey]
COREFERENCE = "COREFERENCE"


def expand_coreference(relations: Iterable[Relation]) -> set[Relation]:
    """The relations as a set, with COREFERENCE closed under transitivity (no self-links)."""
    relations = set(relations)
    antecedents: dict[MentionKey, set[MentionKey]] = {}
    for kind, anaphor, antecedent in relations:
        if kind == COREFERENCE:
            antecedents.setdefault(anaphor, set()).add(antecedent)
    for start, direct in antecedents.items():
        seen: set[MentionKey] = set()
        stack = list(direct)
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            stack.extend(antecedents.get(node, ()))
        relations.update((COREFERENCE, start, node) for node in seen if node != start)
    return relations


def relation_counts(
    key: Iterable[Relation], response: Iterable[Relation], *, relaxed: bool = False
) -> dict[str, Counts]:
    """Counts per link type (every type of ``LINK_TYPES``, plus any other present)."""
    key_by_type = _by_type(expand_coreference(key))
    response_by_type = _by_type(expand_coreference(response))
    types = list(LINK_TYPES) + sorted(
        (key_by_type.keys() | response_by_type.keys()) - set(LINK_TYPES)
    )
    counts = {}
    for kind in types:
        key_relations = key_by_type.get(kind, [])
        response_relations = response_by_type.get(kind, [])
        if relaxed:
            tp = _relaxed_relation_matches(key_relations, response_relations)
        else:
            tp = len(set(key_relations).intersection(response_relations))
        counts[kind] = Counts.from_tp(tp, len(key_relations), len(response_relations))
    return counts


def overall(per_type: dict[str, Counts]) -> Counts:
    """Micro average over types: TP, #key and #response added type by type."""
    total = Counts()
    for counts in per_type.values():
        total = total + counts
    return total


def _by_type(relations: Iterable[Relation]) -> dict[str, list[Relation]]:
    grouped: dict[str, list[Relation]] = {}
    for relation in relations:
        grouped.setdefault(relation[0], []).append(relation)
    return grouped


def _relaxed_relation_matches(key: Sequence[Relation], response: Sequence[Relation]) -> int:
    if not key or not response:
        return 0
    anaphors = OverlapIndex([relation[1] for relation in response])
    antecedents = OverlapIndex([relation[2] for relation in response])
    adjacency = []
    for _, anaphor, antecedent in key:
        both = set(antecedents.overlapping(antecedent))
        adjacency.append([index for index in anaphors.overlapping(anaphor) if index in both])
    return maximum_matching_size(adjacency, len(response))


def anaphor_counts(
    key: Iterable[Relation], response: Iterable[Relation], *, relaxed: bool = False
) -> Counts:
    """Anaphor detection counts: distinct anaphors of each side, exact or overlap-matched."""
    return mention_detection_counts(
        distinct(relation[1] for relation in key),
        distinct(relation[1] for relation in response),
        relaxed=relaxed,
    )
