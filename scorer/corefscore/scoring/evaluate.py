"""One topic, one key and one response: which metric reads what, and the IAA metric table."""

from __future__ import annotations

from itertools import zip_longest
from typing import Any

from corefscore.corpus import LINK_TYPES
from corefscore.metrics.alpha import (
    mention_type_metric,
    mention_units,
    nominal_alpha,
    pool_units,
    relation_units,
    typed_mentions,
)
from corefscore.metrics.anaphora import anaphor_counts, overall, relation_counts
from corefscore.metrics.bootstrap import f1_of_sums
from corefscore.metrics.coreference import METRICS as COREFERENCE_METRICS
from corefscore.metrics.coreference import conll_f1, coreference_counts
from corefscore.metrics.counts import Counts, add_counts, ratio, sequential_sum
from corefscore.metrics.hierarchy import hierarchy_scores
from corefscore.metrics.iaa import MetricSpec
from corefscore.metrics.mention_detection import mention_detection_counts
from corefscore.metrics.path_ratio import (
    path_ratio_counts,
    path_ratio_macro,
    path_ratio_micro,
)
from corefscore.metrics.undefined import f1_or_none, is_defined
from corefscore.scoring.plain import TopicAnnotation


def coreference(
    key: TopicAnnotation, response: TopicAnnotation, keep_singletons: bool
) -> dict[str, Counts]:
    return coreference_counts(key.clustering(keep_singletons), response.clustering(keep_singletons))


def mention_detection(key: TopicAnnotation, response: TopicAnnotation, kind: str) -> Counts:
    return mention_detection_counts(key.mentions, response.mentions, relaxed=kind == "relaxed")


def hierarchies(
    key: TopicAnnotation, response: TopicAnnotation, counted: str = "closure"
) -> tuple[Counts, Counts]:
    """(hierarchy F1 counts, hierarchy F1-50% counts)."""
    return hierarchy_scores(key.graph, response.graph, counted=counted)


def path_ratio(key: TopicAnnotation, response: TopicAnnotation) -> tuple[float, int]:
    """The path ratio's counts; (0.0, 0), undefined, where neither side has a hierarchy
    relation, as every hierarchy figure is there (metrics/undefined.py)."""
    if not key.relations and not response.relations:
        return 0.0, 0
    return path_ratio_counts(key.graph, response.graph)


def path_micro(topic_counts: list[tuple[float, int]]) -> float | None:
    """SciCo's micro path ratio; None where no topic has a scored pair (undefined)."""
    if not any(count for _, count in topic_counts):
        return None
    return path_ratio_micro(topic_counts)


def path_macro(topic_counts: list[tuple[float, int]]) -> float | None:
    """SciCo's macro path ratio over the topics where it is defined (a topic without a scored
    pair is left out, not counted 0); None where it is defined on none."""
    defined = [counts for counts in topic_counts if counts[1]]
    return path_ratio_macro(defined) if defined else None


def conll_or_none(counts: dict[str, Counts]) -> float | None:
    """CoNLL F1, None where MUC, B3 or CEAF-e is undefined (metrics/undefined.py: on real
    annotations B3 and CEAF-e are undefined only where MUC is)."""
    if not all(is_defined(counts[name]) for name in ("muc", "bcub", "ceafe")):
        return None
    return float(conll_f1(counts))


def relations(key: TopicAnnotation, response: TopicAnnotation, kind: str) -> dict[str, Counts]:
    return relation_counts(key.links, response.links, relaxed=kind == "relaxed")


def anaphors(key: TopicAnnotation, response: TopicAnnotation, kind: str) -> Counts:
    return anaphor_counts(key.links, response.links, relaxed=kind == "relaxed")


def pair(
    scheme: str,
    key: TopicAnnotation,
    response: TopicAnnotation,
    keep_singletons: bool,
    counted: str = "closure",
) -> dict[str, Any]:
    """Everything the IAA metrics of ``scheme`` need from one pair of annotations of a topic.

    Mention detection (exact and relaxed, singletons included) is in both schemes; the
    hierarchy is counted both ways (``hierarchy``: as ``counted`` says, by default SciCo's
    closure count; ``hierarchy_raw``: the raw edges, not SciCo's), so both can be shown side
    by side.
    """
    mentions = {
        "mention_exact": mention_detection(key, response, "exact"),
        "mention_relaxed": mention_detection(key, response, "relaxed"),
    }
    if scheme == "scico":
        any_pair, half = hierarchies(key, response, counted)
        raw = any_pair if counted == "raw" else hierarchies(key, response, "raw")[0]
        return {
            "coref": coreference(key, response, keep_singletons),
            "hierarchy": any_pair,
            "hierarchy_raw": raw,
            "hierarchy_50": half,
            "path": path_ratio(key, response),
            **mentions,
        }
    lengths = [
        max(a, b) for a, b in zip_longest(key.token_counts, response.token_counts, fillvalue=0)
    ]
    return {
        "relation_exact": overall(relations(key, response, "exact")),
        "relation_relaxed": overall(relations(key, response, "relaxed")),
        "alpha_relations": relation_units([key.links, response.links]),
        "alpha_mentions": mention_units([key.mentions, response.mentions], lengths),
        **{
            mention_type_metric(kind): mention_units(
                [typed_mentions(key.links, kind), typed_mentions(response.links, kind)], lengths
            )
            for kind in LINK_TYPES
        },
        "anaphor_exact": anaphors(key, response, "exact"),
        "anaphor_relaxed": anaphors(key, response, "relaxed"),
        **mentions,
    }


def _pool_coreference(parts: list[dict[str, Counts]]) -> dict[str, Counts]:
    return {name: add_counts(part[name] for part in parts) for name in COREFERENCE_METRICS}


def _pool_path(parts: list[tuple[float, int]]) -> tuple[float, int]:
    return sequential_sum(n for n, _ in parts), sum(d for _, d in parts)


def _vector(counts: Counts) -> tuple[float, float, float, float]:
    return (counts.p_num, counts.p_den, counts.r_num, counts.r_den)


def _conll_vector(coref: dict[str, Counts]) -> tuple[float, ...]:
    return tuple(value for name in ("muc", "bcub", "ceafe") for value in _vector(coref[name]))


def _conll_of_sums(sums: Any) -> Any:
    # NaN (undefined) where MUC's is: NaN propagates through the sum
    return (f1_of_sums(sums[:, 0:4]) + f1_of_sums(sums[:, 4:8]) + f1_of_sums(sums[:, 8:12])) / 3


def _ratio_of_sums(sums: Any) -> Any:
    import numpy

    with numpy.errstate(divide="ignore", invalid="ignore"):
        return numpy.where(sums[:, 1] > 0, sums[:, 0] / sums[:, 1], numpy.nan)


def _path_score(counts: tuple[float, int]) -> float | None:
    return float(ratio(*counts)) if counts[1] else None


def _coreference_f1(name: str) -> MetricSpec:
    return MetricSpec(
        f"{name}_f1",
        lambda result: result["coref"][name],
        f1_or_none,
        add_counts,
        vector=_vector,
        score_sums=f1_of_sums,
    )


def _counts_f1(name: str, field: str) -> MetricSpec:
    return MetricSpec(
        name,
        lambda result: result[field],
        f1_or_none,
        add_counts,
        vector=_vector,
        score_sums=f1_of_sums,
    )


def _alpha(name: str) -> MetricSpec:
    return MetricSpec(name, lambda result: result[name], nominal_alpha, pool_units)


# Mention detection, singletons included (Realistic Evaluation 3.1): exact spans, and the
# relaxed overlap variant (a maximum one-to-one matching of overlapping mentions).
MENTION_METRICS = (
    _counts_f1("mention_f1", "mention_exact"),
    _counts_f1("mention_relaxed_f1", "mention_relaxed"),
)

IAA_METRICS: dict[str, tuple[MetricSpec, ...]] = {
    "scico": (
        MetricSpec(
            "conll_f1",
            lambda result: result["coref"],
            conll_or_none,
            _pool_coreference,
            vector=_conll_vector,
            score_sums=_conll_of_sums,
        ),
        _coreference_f1("muc"),
        _coreference_f1("bcub"),
        _coreference_f1("ceafe"),
        _coreference_f1("lea"),
        _counts_f1("hierarchy_f1", "hierarchy"),
        _counts_f1("hierarchy_50_f1", "hierarchy_50"),
        MetricSpec(
            "path_ratio",
            lambda result: result["path"],
            _path_score,
            _pool_path,
            vector=tuple,
            score_sums=_ratio_of_sums,
        ),
        # added after the original metrics, so that consumers reading them by position keep working
        _counts_f1("hierarchy_f1_raw", "hierarchy_raw"),
        *MENTION_METRICS,
    ),
    "chemu": (
        _counts_f1("relation_exact_f1", "relation_exact"),
        _counts_f1("relation_relaxed_f1", "relation_relaxed"),
        _alpha("alpha_relations"),
        _alpha("alpha_mentions"),
        *MENTION_METRICS,
        _counts_f1("anaphor_f1", "anaphor_exact"),
        _counts_f1("anaphor_relaxed_f1", "anaphor_relaxed"),
        # per mention type (the overview's 0.89 for coreference mentions), appended
        *(_alpha(mention_type_metric(kind)) for kind in LINK_TYPES),
    ),
}
