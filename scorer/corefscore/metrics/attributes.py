"""Agreement on the attributes annotators set on links (certainty: high | low, ...).

A unit is a link two annotators both drew: the same anaphor and antecedent (by document and
spans, so mentions each added count when they match) and the same type. Only the links where
at least one of the two set the attribute are compared; the other's value is then "none" if
unset, a category of its own. Two links neither annotated say nothing about the attribute,
and counting them would inflate agreement with "none" against "none".

Per attribute: for each annotator pair, the units compared, the observed agreement and
Cohen's kappa; over every annotator, Krippendorff's alpha (nominal), each link drawn by two
or more annotators a unit (an annotator who did not draw it has no value), pooled over topics.

Degenerate cases follow :mod:`corefscore.metrics.alpha`: nothing compared is None; when both
give one and the same value throughout, chance agreement is 1 and kappa is 1.0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from corefscore.metrics.alpha import nominal_alpha

UNSET = "none"

# annotator -> link (any hashable identity, the same across annotators) -> name -> value
Attributed = Mapping[str, Mapping[Hashable, Mapping[str, str]]]


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Cohen's kappa of two raters' values, unit by unit (None when there is no unit)."""
    if not pairs:
        return None
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    expected = sum(first[value] * second[value] for value in first) / (n * n)
    if expected == 1:
        return 1.0
    return (observed - expected) / (1 - expected)


def attribute_agreement(annotations: Attributed, names: Sequence[str]) -> dict[str, Any]:
    """name -> {"units", "observed", "alpha", "pairs": {"a-b": {"units", "observed",
    "kappa"}}}; annotators in the order given, pairs as the report names them (a-b)."""
    annotators = list(annotations)
    result: dict[str, Any] = {}
    for name in names:
        pairs: dict[str, dict[str, Any]] = {}
        units = observed = 0
        for index, a in enumerate(annotators):
            for b in annotators[index + 1 :]:
                values = _compared(annotations[a], annotations[b], name)
                agree = sum(x == y for x, y in values)
                pairs[f"{a}-{b}"] = {
                    "units": len(values),
                    "observed": agree / len(values) if values else None,
                    "kappa": cohen_kappa(values),
                }
                units += len(values)
                observed += agree
        result[name] = {
            "units": units,
            "observed": observed / units if units else None,
            "alpha": nominal_alpha(_reliability(annotations, annotators, name)),
            "pairs": pairs,
        }
    return result


def _compared(
    first: Mapping[Hashable, Mapping[str, str]],
    second: Mapping[Hashable, Mapping[str, str]],
    name: str,
) -> list[tuple[str, str]]:
    return [
        (first[link].get(name, UNSET), second[link].get(name, UNSET))
        for link in first
        if link in second and (name in first[link] or name in second[link])
    ]


def _reliability(annotations: Attributed, annotators: list[str], name: str) -> list[list[Any]]:
    """Rows: annotators; columns: the links two or more drew, one of them with a value."""
    drawn: Counter[Hashable] = Counter(link for a in annotators for link in annotations[a])
    columns = [
        link
        for link, n in drawn.items()
        if n >= 2 and any(name in annotations[a].get(link, {}) for a in annotators)
    ]
    return [
        [
            annotations[a][link].get(name, UNSET) if link in annotations[a] else None
            for link in columns
        ]
        for a in annotators
    ]
