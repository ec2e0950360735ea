"""Krippendorff's alpha (nominal) for anaphora relations and mentions, several annotators.

Reliability data are rows (one per annotator) of values (one per unit); every annotator who
submitted a topic has a value for every unit of it, so for a pair nothing is missing. Across
several annotators and topics (:func:`pooled_units`), an annotator who did not submit a topic
has no value (``None``) for its units, which Krippendorff's alpha allows.

- Relations (metrics.md): units are the ordered mention pairs (anaphor, antecedent) linked
  by any of the annotators; the value is the link type, or NONE. COREFERENCE is expanded by
  transitivity first, as for the relation F1. The closure is directed (anaphor ->
  antecedent), so a chain and its collapsed form do *not* agree: T3 -> T2 -> T1 closes to
  T3->T2, T2->T1, T3->T1, and T2 -> T1, T3 -> T1 lacks T3->T2 (with one agreed TRANSFORMED
  link besides, alpha is 10/17 = 0.588). A pair linked with two types by one annotator
  gets the combined value ("CONTAINED+WORK_UP"), a category of its own.
- Mentions: units are the tokens of the topic's documents; the value is whether a mention
  of the annotator covers the token.
- Mentions of one type (the ChEMU 2021 overview's per-type figures: "the lowest agreement
  being alpha = 0.89 for coreference mentions", section 3.4): ChEMU-Ref mentions carry no
  label, so a mention's type is the type of a link it takes part in, as anaphor or
  antecedent (:func:`typed_mentions`); the units are as for mentions, over the mentions of
  that type only. A mention in links of two types counts for both.
- Several topics (an annotator pair's overall score): units are pooled, i.e. the columns of
  the topics are concatenated before one alpha is computed.

Degenerate data, which the ``krippendorff`` package refuses: with no unit (nothing to agree
on) alpha is undefined and reported as ``None``; when every value given is the same one,
observed and expected disagreement are both 0 and the annotators agree on everything, so
alpha is 1.0.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from corefscore.metrics.anaphora import Relation, expand_coreference
from corefscore.metrics.mention_detection import MentionKey

NONE = "NONE"

Units = list[list[Hashable]]


def nominal_alpha(units: Sequence[Sequence[Hashable | None]]) -> float | None:
    """Alpha of reliability data (rows: annotators, columns: units; ``None`` = no value)."""
    if len(units) < 2 or not units[0]:
        return None
    import numpy

    try:  # numbers (mention units) are their own codes
        codes = numpy.asarray(units, dtype=numpy.float64)
    except (TypeError, ValueError):  # labels, or None for a missing value
        codes_by_value: dict[Hashable, int] = {}
        codes = numpy.array(
            [
                [
                    numpy.nan
                    if value is None
                    else codes_by_value.setdefault(value, len(codes_by_value))
                    for value in row
                ]
                for row in units
            ],
            dtype=numpy.float64,
        )
    present = ~numpy.isnan(codes)
    if not (present.sum(axis=0) >= 2).any():
        return None  # no unit has two values: nothing can be compared
    if numpy.unique(codes[present]).size < 2:
        return 1.0
    import krippendorff

    return float(krippendorff.alpha(reliability_data=codes, level_of_measurement="nominal"))


def relation_units(annotations: Sequence[Iterable[Relation]]) -> Units:
    """One row per annotator: the value of every ordered mention pair linked by anyone."""
    expanded = [expand_coreference(relations) for relations in annotations]
    types_by_pair: list[dict[tuple[MentionKey, MentionKey], set[str]]] = []
    for relations in expanded:
        by_pair: dict[tuple[MentionKey, MentionKey], set[str]] = {}
        for kind, anaphor, antecedent in relations:
            by_pair.setdefault((anaphor, antecedent), set()).add(kind)
        types_by_pair.append(by_pair)
    pairs = sorted({pair for by_pair in types_by_pair for pair in by_pair})
    return [
        ["+".join(sorted(by_pair[pair])) if pair in by_pair else NONE for pair in pairs]
        for by_pair in types_by_pair
    ]


def typed_mentions(links: Iterable[Relation], kind: str) -> list[MentionKey]:
    """The mentions that are the anaphor or the antecedent of a link of type ``kind``."""
    return list(
        dict.fromkeys(
            mention
            for link_type, anaphor, antecedent in links
            if link_type == kind
            for mention in (anaphor, antecedent)
        )
    )


def mention_type_metric(kind: str) -> str:
    """The IAA metric of the mentions of link type ``kind``: ``alpha_mentions_coreference``."""
    return f"alpha_mentions_{kind.lower()}"


def mention_units(
    annotations: Sequence[Iterable[MentionKey]], token_counts: Sequence[int]
) -> Units:
    """One row per annotator: for every token of every document, 1 inside a mention, else 0.

    ``token_counts`` gives each document's length; a mention reaching past it (or into a
    document not listed) extends the units so no annotated token is lost.
    """
    covered = [
        {
            (document, token)
            for document, spans in mentions
            for start, end in spans
            for token in range(start, end + 1)
        }
        for mentions in annotations
    ]
    lengths = list(token_counts)
    for tokens in covered:
        for document, token in tokens:
            while document >= len(lengths):
                lengths.append(0)
            lengths[document] = max(lengths[document], token + 1)
    units = [
        (document, token) for document, length in enumerate(lengths) for token in range(length)
    ]
    return [[1 if unit in tokens else 0 for unit in units] for tokens in covered]


def pooled_units(topics: Iterable[tuple[Sequence[int], Units]], annotators: int) -> Units:
    """All annotators' rows over several topics; ``topics`` gives, per topic, the positions of
    the annotators who submitted it and their units. The others get ``None`` there."""
    pooled: Units = [[] for _ in range(annotators)]
    for present, units in topics:
        width = len(units[0]) if units else 0
        rows = dict(zip(present, units, strict=True))
        for annotator in range(annotators):
            pooled[annotator].extend(rows.get(annotator, [None] * width))
    return pooled


def pool_units(parts: Iterable[Units]) -> Units:
    """Concatenate the units of several topics (same annotators, same row order)."""
    pooled: Units = []
    for part in parts:
        if not pooled:
            pooled = [list(row) for row in part]
        else:
            for row, extra in zip(pooled, part, strict=True):
                row.extend(extra)
    return pooled
