"""When a score is undefined, and why (docs/scoring.md, "Undefined scores").

A score is **undefined** when neither side holds anything the metric counts: its precision
and its recall would both be 0/0. The reference scorers write 0 there (coval ``f1``, SciCo,
BRATEval), which reads as total disagreement where there was nothing to disagree on: two
annotators who both leave every mention alone agree completely, yet every coreference
figure would say 0.0. Here such a score is ``None`` and each metric names its reason
(:func:`reason`); every defined score is still the reference scorers' float, to the last
digit. When only one side is empty, the score is defined: 0 (one side found what the other
did not).

Which metric is undefined when (singletons removed, the default; metrics.md):

- MUC, B3, CEAF-e, LEA, coval's "mentions": neither side has a cluster of two or more
  mentions (identical singleton-only annotations: all five undefined).
- With ``keep_singletons``: MUC when neither side has a coreference link (clusters of one
  only); B3, CEAF-e, LEA and "mentions" only when neither side has a mention. Identical
  singleton-only annotations are complete agreement there: B3, CEAF-e, LEA = 1.0.
- CoNLL F1, the mean of MUC, B3 and CEAF-e: undefined when one of them is (the mean of two
  of its three parts is not CoNLL). On annotations B3 or CEAF-e is undefined only where MUC
  is too, so CoNLL's reason is MUC's.
- Hierarchy figures, all of them alike (hierarchy F1 closure and raw edges, F1-50%, the
  path-distance ratio): neither side has a hierarchy relation. The path ratio would
  otherwise be defined there (every mention's pair with itself scores 1) and measure the
  clustering only, beside hierarchy F1s that are not scored: one rule for the four.
- Mention detection (exact, overlap): neither side has a mention.
- ChEMU relations, anaphors: neither side has a relation (an anaphor).
- Krippendorff's alpha: no unit with two values, or a single value in all the data
  (``alpha.nominal_alpha``; where neither side has a mention of a type, alpha is 1: the
  tokens are all "outside" on both sides, docs/agreement-csv.md).

Over several topics (micro averages) the counts are added, so a topic where a metric is
undefined adds nothing and the pooled score is undefined only when it is undefined on every
topic; MAX-macro averages the topics where it is defined. Nothing here imports Django.
"""

from __future__ import annotations

from corefscore.metrics.counts import Counts

NO_CLUSTER = "no cluster of two or more mentions on either side (singletons are not scored)"
NO_MENTION = "no mention on either side"
NO_LINK = "no coreference link on either side (every cluster has one mention)"
NO_HIERARCHY = "no hierarchy relation on either side"
NO_RELATION = "no relation on either side"
NO_ANAPHOR = "no anaphor on either side"
NO_UNIT = "no unit with two values, or one value everywhere (alpha has no variation to compare)"

_COREFERENCE = ("conll_f1", "muc_f1", "bcub_f1", "ceafe_f1", "lea_f1")
_HIERARCHY = ("hierarchy_f1", "hierarchy_50_f1", "hierarchy_f1_raw", "path_ratio")


def reason(metric: str, *, keep_singletons: bool = False) -> str:
    """Why ``metric`` (an IAA metric name, ``evaluate.IAA_METRICS``) is undefined where it is."""
    if metric in _COREFERENCE:
        if not keep_singletons:
            return NO_CLUSTER
        return NO_LINK if metric in ("conll_f1", "muc_f1") else NO_MENTION
    if metric in _HIERARCHY:
        return NO_HIERARCHY
    if metric.startswith("mention"):
        return NO_MENTION
    if metric.startswith("relation"):
        return NO_RELATION
    if metric.startswith("anaphor"):
        return NO_ANAPHOR
    if metric.startswith("alpha"):
        return NO_UNIT
    return "nothing to score on either side"


def reasons(metrics: list[str], *, keep_singletons: bool = False) -> dict[str, str]:
    """metric -> :func:`reason`, for a report's metrics."""
    return {metric: reason(metric, keep_singletons=keep_singletons) for metric in metrics}


def is_defined(counts: Counts) -> bool:
    """Whether either side counted something (a precision or a recall denominator)."""
    return counts.defined


def f1_or_none(counts: Counts) -> float | None:
    """F1 (the reference scorers' float), ``None`` where undefined."""
    return float(counts.f1) if counts.defined else None
