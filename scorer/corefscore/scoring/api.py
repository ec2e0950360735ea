"""The scorers' public API: evaluation of a system against gold, and inter-annotator agreement.

- :func:`score_scico` / :func:`score_chemu` compare two lists of topics (matched by external
  id) and return the JSON objects of ``python -m corefscore score --json``.
- :func:`iaa` scores every pair of annotators on every topic both submitted and aggregates
  (AVG, MAX, MAX-micro, MAX-macro); :func:`iaa_csv_rows` / :func:`write_iaa_csv` give its
  CSV (layout: docs/agreement-csv.md).

All take ``TopicData`` (what the readers return and what the Django layer builds) or the
already converted :class:`TopicAnnotation`. Scores are micro averages over topics: counts are
added topic by topic in the gold file's order, then divided.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, zip_longest
from typing import Any, NamedTuple

from corefscore.corpus import LINK_TYPES, TopicData
from corefscore.metrics.alpha import (
    mention_units,
    nominal_alpha,
    pooled_units,
    relation_units,
)
from corefscore.metrics.anaphora import overall
from corefscore.metrics.bootstrap import f1_intervals
from corefscore.metrics.counts import Counts, add_counts
from corefscore.metrics.iaa import aggregate, pair_label
from corefscore.scoring import evaluate, granularity
from corefscore.scoring.iaa_csv import iaa_csv_rows, write_iaa_csv
from corefscore.scoring.plain import ScoringInputError, TopicAnnotation, from_topic

Topic = TopicData | TopicAnnotation

__all__ = [
    "ScoringInputError",
    "TopicAnnotation",
    "TopicMismatchError",
    "alpha_all_annotators",
    "from_topic",
    "iaa",
    "iaa_csv_rows",
    "score_chemu",
    "score_scico",
    "score_scoped",
    "write_iaa_csv",
]


class TopicMismatchError(ScoringInputError):
    """Gold and system do not hold the same topics (or one holds a topic twice)."""


def score_scico(
    gold: Sequence[Topic],
    system: Sequence[Topic],
    *,
    keep_singletons: bool = False,
    hierarchy_count: str = "closure",
    intervals: bool = True,
) -> dict[str, Any]:
    """Coreference, mention detection and hierarchy scores of ``system`` against ``gold``.

    ``intervals``: add ``f1_ci``, the 95% bootstrap intervals over topics (off where a caller
    scores many systems at once and shows no interval: the annotator-vs-gold table).

    The default counts hierarchy F1 over the transitive closure, as SciCo's released
    ``eval/hypernym.py`` does (metrics.md); ``hierarchy_count="raw"`` counts the raw edges
    only (not SciCo's: its April 2021 pre-release code).
    """
    per_topic = [
        _scico_topic(key, response, keep_singletons, hierarchy_count)
        for key, response in _matched(gold, system)
    ]
    coref = [topic.coreference for topic in per_topic]
    path = [topic.path_ratio for topic in per_topic]
    result: dict[str, Any] = {
        "mentions": add_counts(c["mentions"] for c in coref).prf(),
        "mention_detection": {
            "exact": add_counts(topic.exact_mentions for topic in per_topic).prf(),
            "relaxed": add_counts(topic.relaxed_mentions for topic in per_topic).prf(),
        },
    }
    totals = {name: add_counts(c[name] for c in coref) for name in ("muc", "bcub", "ceafe", "lea")}
    result.update({name: counts.prf() for name, counts in totals.items()})
    result["conll_f1"] = evaluate.conll_or_none(totals)
    result["hierarchy"] = add_counts(topic.hierarchy[0] for topic in per_topic).prf()
    result["hierarchy_50"] = add_counts(topic.hierarchy[1] for topic in per_topic).prf()
    # the raw edges count (not SciCo's: raw relations matched against the closure), always
    # beside ``hierarchy`` so that a report can print both (docs/scoring.md, "Two hierarchy
    # counts")
    result["hierarchy_f1_raw"] = add_counts(topic.hierarchy_raw for topic in per_topic).prf()
    result["path_ratio"] = {"micro": evaluate.path_micro(path), "macro": evaluate.path_macro(path)}
    vectors = {name: [_vector(c[name]) for c in coref] for name in totals}
    vectors["mention_detection_exact"] = [_vector(t.exact_mentions) for t in per_topic]
    vectors["hierarchy"] = [_vector(t.hierarchy[0]) for t in per_topic]
    vectors["hierarchy_f1_raw"] = [_vector(t.hierarchy_raw) for t in per_topic]
    vectors["hierarchy_50"] = [_vector(t.hierarchy[1]) for t in per_topic]
    # 95% bootstrap intervals of the F1 scores over topics (docs/scoring.md)
    if intervals:
        result["f1_ci"] = f1_intervals(vectors)
    return result


def _vector(counts: Counts) -> tuple[float, float, float, float]:
    return (counts.p_num, counts.p_den, counts.r_num, counts.r_den)


def score_scoped(
    format: str,
    gold: Sequence[Topic],
    system: Sequence[Topic],
    *,
    level: str = "topic",
    per_topic: bool = False,
    topic_ids: Sequence[str] | None = None,
    intervals: bool = True,
    cluster_ids: str = "per-topic",
    **options: Any,
) -> dict[str, Any]:
    """`score_scico` / `score_chemu` over a subset of the topics (`topic_ids`, gold order
    kept), at corpus level (`level="corpus"`: one meta-document; `cluster_ids` says whether
    an id names a cluster of its topic, SciCo's numbering, or of the corpus:
    `granularity`), and with a row per topic (`per_topic`). The result is the plain
    scorer's, plus "scope" ({"level", "topics"[, "cluster_ids" at corpus level][,
    "subset"]}) and, with `per_topic`, "per_topic" (a list of {"topic": id, **that topic's
    scores}; at corpus level, one row, "corpus")."""
    if level not in ("topic", "corpus"):
        raise ValueError(f"level must be topic or corpus, not {level!r}")

    wanted = intervals

    def score(g: Sequence[Topic], s: Sequence[Topic], intervals: bool = wanted) -> dict[str, Any]:
        if format == "scico":
            return score_scico(g, s, intervals=intervals, **options)
        return score_chemu(g, s, intervals=intervals)

    def row(g: Sequence[Topic], s: Sequence[Topic]) -> dict[str, Any]:
        return score(g, s, intervals=False)  # no bootstrap over a single topic

    gold_plain, system_plain = [_convert(t) for t in gold], [_convert(t) for t in system]
    if topic_ids is not None:
        gold_plain, system_plain = granularity.subset(gold_plain, system_plain, topic_ids)
    pairs = _matched(gold_plain, system_plain)
    if level == "corpus":
        pairs = [granularity.corpus_documents(pairs, cluster_ids)]
    result = score([key for key, _ in pairs], [response for _, response in pairs])
    scope: dict[str, Any] = {"level": level, "topics": len(gold_plain)}
    if level == "corpus":
        scope["cluster_ids"] = cluster_ids
    if topic_ids is not None:
        scope["subset"] = [topic.topic_id for topic in gold_plain]
    result["scope"] = scope
    if per_topic:
        result["per_topic"] = granularity.per_topic(pairs, row)
    return result


class _ScicoTopicCounts(NamedTuple):
    """Everything ``score_scico`` adds up, for one (gold, system) topic."""

    coreference: dict[str, Counts]
    exact_mentions: Counts
    relaxed_mentions: Counts
    hierarchy: tuple[Counts, Counts]  # (hierarchy F1, hierarchy F1-50%)
    hierarchy_raw: Counts  # hierarchy F1 over the raw edges (not SciCo's)
    path_ratio: tuple[float, int]


def _scico_topic(
    key: TopicAnnotation, response: TopicAnnotation, keep_singletons: bool, hierarchy_count: str
) -> _ScicoTopicCounts:
    hierarchy = evaluate.hierarchies(key, response, hierarchy_count)
    raw = hierarchy[0]
    if hierarchy_count != "raw":
        raw = evaluate.hierarchies(key, response, "raw")[0]
    return _ScicoTopicCounts(
        evaluate.coreference(key, response, keep_singletons),
        evaluate.mention_detection(key, response, "exact"),
        evaluate.mention_detection(key, response, "relaxed"),
        hierarchy,
        raw,
        evaluate.path_ratio(key, response),
    )


def score_chemu(
    gold: Sequence[Topic], system: Sequence[Topic], *, intervals: bool = True
) -> dict[str, Any]:
    """ChEMU-Ref relation scores (exact and relaxed, overall and per type), anaphor detection
    and mention detection (singletons included)."""
    topics = _matched(gold, system)
    result: dict[str, Any] = {
        "mention_detection": {
            kind: add_counts(
                evaluate.mention_detection(key, response, kind) for key, response in topics
            ).prf()
            for kind in ("exact", "relaxed")
        }
    }
    for kind in ("exact", "relaxed"):
        per_topic = [evaluate.relations(key, response, kind) for key, response in topics]
        per_type = {name: add_counts(counts[name] for counts in per_topic) for name in LINK_TYPES}
        result[kind] = {
            "overall": add_counts(per_type.values()).prf(),
            "per_type": {name: counts.prf() for name, counts in per_type.items()},
        }
    result["anaphors"] = {
        kind: add_counts(evaluate.anaphors(key, response, kind) for key, response in topics).prf()
        for kind in ("exact", "relaxed")
    }
    if intervals:  # 95% bootstrap intervals of the F1 scores over topics (docs/scoring.md)
        result["f1_ci"] = f1_intervals(_chemu_vectors(topics))
    return result


def _chemu_vectors(
    topics: list[tuple[TopicAnnotation, TopicAnnotation]],
) -> dict[str, list[tuple[float, float, float, float]]]:
    """Per metric, each topic's counts as a vector (the bootstrap's input)."""

    def relation(key: TopicAnnotation, response: TopicAnnotation, kind: str) -> Counts:
        return overall(evaluate.relations(key, response, kind))

    return {
        f"{name}_{kind}": [_vector(counts(key, response, kind)) for key, response in topics]
        for name, counts in (
            ("relation", relation),
            ("anaphor", evaluate.anaphors),
            ("mention_detection", evaluate.mention_detection),
        )
        for kind in ("exact", "relaxed")
    }


def iaa(
    annotators: Sequence[Sequence[Topic]],
    *,
    scheme: str,
    names: Sequence[str] | None = None,
    keep_singletons: bool = False,
    hierarchy_count: str = "closure",
    intervals: bool = True,
) -> dict[str, Any]:
    """Agreement of several annotators (each a list of the topics they submitted).

    Returns ``{"topics": {topic: {metric: {"avg", "max", "pairs"}}}, "overall": {metric:
    {"avg", "std", "max_micro", "max_macro"}}, "unscored_topics": [topic, ...]}``; pairs are
    "1-2" (1-based positions of ``annotators``) or "name-name" when ``names`` are given.
    """
    if scheme not in evaluate.IAA_METRICS:
        raise ValueError(f"scheme must be one of {', '.join(evaluate.IAA_METRICS)}, not {scheme!r}")
    if names is not None and len(names) != len(annotators):
        raise ValueError(f"{len(names)} names for {len(annotators)} annotators")
    by_annotator = [
        _by_id(topics, f"annotator {label}") for label, topics in _labels(annotators, names)
    ]
    order = list(dict.fromkeys(topic_id for topics in by_annotator for topic_id in topics))
    scored: list[tuple[str, list[TopicAnnotation | None]]] = []
    unscored: list[str] = []
    for topic_id in order:
        plain = [topics.get(topic_id) for topics in by_annotator]
        if len(plain) - plain.count(None) < 2:
            unscored.append(topic_id)
        else:
            scored.append((topic_id, plain))
    results = {
        topic_id: _iaa_topic(plain, scheme, names, keep_singletons, hierarchy_count)
        for topic_id, plain in scored
    }
    topics, overall = aggregate(
        results, evaluate.IAA_METRICS[scheme], weights=None if intervals else False
    )
    return {"topics": topics, "overall": overall, "unscored_topics": unscored}


def _iaa_topic(
    plain: list[TopicAnnotation | None],
    scheme: str,
    names: Sequence[str] | None,
    keep_singletons: bool,
    hierarchy_count: str,
) -> dict[str, Any]:
    """Pair label -> what ``evaluate.pair`` gives, for every pair of annotators of one topic."""
    present = [(i, annotation) for i, annotation in enumerate(plain) if annotation is not None]
    return {
        pair_label(a, b, names): evaluate.pair(
            scheme, key, response, keep_singletons, hierarchy_count
        )
        for (a, key), (b, response) in combinations(present, 2)
    }


def alpha_all_annotators(annotators: Sequence[Sequence[Topic]]) -> dict[str, float | None]:
    """Krippendorff's alpha of all annotators at once, units pooled over the topics that at
    least two of them submitted (the ChEMU-Ref way of reporting one figure per scheme).

    Returns ``{"alpha_relations": x, "alpha_mentions": x}`` (``None`` where undefined).
    """
    by_annotator = [
        _by_id(topics, f"annotator {label}") for label, topics in _labels(annotators, None)
    ]
    relations, mentions = [], []
    for topic_id in dict.fromkeys(topic_id for topics in by_annotator for topic_id in topics):
        present = [i for i, topics in enumerate(by_annotator) if topic_id in topics]
        if len(present) < 2:
            continue
        plain = [by_annotator[i][topic_id] for i in present]
        relations.append((present, relation_units([p.links for p in plain])))
        lengths = [
            max(counts) for counts in zip_longest(*(p.token_counts for p in plain), fillvalue=0)
        ]
        mentions.append((present, mention_units([p.mentions for p in plain], lengths)))
    return {
        "alpha_relations": nominal_alpha(pooled_units(relations, len(annotators))),
        "alpha_mentions": nominal_alpha(pooled_units(mentions, len(annotators))),
    }


def _labels(
    annotators: Sequence[Sequence[Topic]], names: Sequence[str] | None
) -> Iterator[tuple[str, Sequence[Topic]]]:
    for position, topics in enumerate(annotators):
        yield (names[position] if names is not None else str(position + 1)), topics


def _convert(topic: Topic) -> TopicAnnotation:
    return topic if isinstance(topic, TopicAnnotation) else from_topic(topic)


def _by_id(topics: Sequence[Topic], side: str) -> dict[str, TopicAnnotation]:
    converted: dict[str, TopicAnnotation] = {}
    for topic in topics:
        plain = _convert(topic)
        if plain.topic_id in converted:
            raise TopicMismatchError(f"topic {plain.topic_id} appears twice in the {side}")
        converted[plain.topic_id] = plain
    return converted


def _matched(
    gold: Sequence[Topic], system: Sequence[Topic]
) -> list[tuple[TopicAnnotation, TopicAnnotation]]:
    """Pairs of (gold, system) topics in gold order; a topic on one side only is an error."""
    gold_topics, system_topics = _by_id(gold, "gold"), _by_id(system, "system")
    missing = [topic_id for topic_id in gold_topics if topic_id not in system_topics]
    extra = [topic_id for topic_id in system_topics if topic_id not in gold_topics]
    if missing or extra:
        problems = []
        if missing:
            problems.append(f"missing from the system: {', '.join(missing)}")
        if extra:
            problems.append(f"missing from the gold: {', '.join(extra)}")
        raise TopicMismatchError("topics differ between gold and system; " + "; ".join(problems))
    return [(gold_topics[topic_id], system_topics[topic_id]) for topic_id in gold_topics]
