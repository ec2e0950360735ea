"""Per-pair counts as stored rows, and the reports rebuilt from them (issue 26.9).

The agreement report scores every pair of annotators on every topic, and every annotator
against gold. What one (key, response) pair of annotations gives is a pure function of the
two annotations: :func:`pair_record` computes it once (``evaluate.pair`` for each scheme of
the project), :func:`record_json` / :func:`record_from_json` turn it into JSON and back with
every number bit for bit (ints stay ints, floats round-trip through ``repr``), and the
report aggregates the records as the from-scratch computation does:

- inter-annotator agreement: :func:`iaa_from_records` (the same ``aggregate`` as ``api.iaa``:
  AVG, MAX-micro, MAX-macro, the micro sums and the bootstrap intervals);
- annotator vs gold: :func:`score_from_records` (what ``api.score_scico`` /
  ``api.score_chemu`` give without intervals).

:data:`OPTIONS_VERSION` is part of every row's options key (:func:`options_key`): bump it when
what a record holds or how it is computed changes, and every stored row becomes stale.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from annotation.domain.corpus import LINK_TYPES
from annotation.domain.metrics.counts import Counts, add_counts
from annotation.domain.metrics.iaa import aggregate
from annotation.domain.scoring import evaluate
from annotation.domain.scoring.plain import TopicAnnotation

OPTIONS_VERSION = 1
SCHEMES = ("scico", "chemu")

Record = dict[str, dict[str, Any]]  # scheme -> what evaluate.pair gives


def options_key(schemes: Sequence[str], *, keep_singletons: bool, counted: str) -> str:
    """What a row's numbers depend on besides its two annotations' versions."""
    return f"v{OPTIONS_VERSION}:{'+'.join(schemes)}:singletons={int(keep_singletons)}:{counted}"


def pair_record(
    schemes: Sequence[str],
    key: TopicAnnotation,
    response: TopicAnnotation,
    *,
    keep_singletons: bool = False,
    counted: str = "closure",
) -> Record:
    """Everything the reports need from one (key, response) pair, per scheme."""
    record: Record = {}
    for scheme in schemes:
        record[scheme] = evaluate.pair(scheme, key, response, keep_singletons, counted)
        if scheme == "chemu":  # per type: how score_chemu adds relations up
            record[scheme]["relation_types"] = {
                kind: evaluate.relations(key, response, kind) for kind in ("exact", "relaxed")
            }
    return record


def _counts(counts: Counts) -> list[float]:
    return [counts.p_num, counts.p_den, counts.r_num, counts.r_den]


def _units(units: list[list[Any]]) -> Any:
    # mention units are 0/1 per token: a string of digits per annotator keeps rows small
    if units and all(value in (0, 1) and type(value) is int for row in units for value in row):
        return {"bits": ["".join(str(value) for value in row) for row in units]}
    return {"values": units}


def _units_back(data: Mapping[str, Any]) -> list[list[Any]]:
    if "bits" in data:
        return [[1 if char == "1" else 0 for char in row] for row in data["bits"]]
    return [list(row) for row in data["values"]]


def record_json(record: Record) -> dict[str, Any]:
    """The JSON form of a record (lists of four numbers for counts)."""
    out: dict[str, Any] = {}
    for scheme, result in record.items():
        encoded: dict[str, Any] = {}
        for name, value in result.items():
            if isinstance(value, Counts):
                encoded[name] = _counts(value)
            elif name == "coref":
                encoded[name] = {metric: _counts(counts) for metric, counts in value.items()}
            elif name == "path":
                encoded[name] = list(value)
            elif name.startswith("alpha_"):
                encoded[name] = _units(value)
            elif name == "relation_types":
                encoded[name] = {
                    kind: {link: _counts(counts) for link, counts in by_type.items()}
                    for kind, by_type in value.items()
                }
            else:
                raise ValueError(f"no JSON form for {name!r}")
        out[scheme] = encoded
    return out


def record_from_json(data: Mapping[str, Any]) -> Record:
    """The inverse of :func:`record_json`."""
    record: Record = {}
    for scheme, encoded in data.items():
        result: dict[str, Any] = {}
        for name, value in encoded.items():
            if name == "coref":
                result[name] = {metric: Counts(*counts) for metric, counts in value.items()}
            elif name == "path":
                result[name] = (value[0], value[1])
            elif name.startswith("alpha_"):
                result[name] = _units_back(value)
            elif name == "relation_types":
                result[name] = {
                    kind: {link: Counts(*counts) for link, counts in by_type.items()}
                    for kind, by_type in value.items()
                }
            else:
                result[name] = Counts(*value)
        record[scheme] = result
    return record


def iaa_from_records(
    results: Mapping[str, Mapping[str, Record]], scheme: str, *, intervals: bool = True
) -> dict[str, Any]:
    """``results[topic][pair]`` -> ``{"topics", "overall"}`` as ``api.iaa`` gives them, for
    one scheme (topics and pairs in the order ``api.iaa`` would put them)."""
    per_scheme = {
        topic: {pair: record[scheme] for pair, record in pairs.items()}
        for topic, pairs in results.items()
    }
    topics, overall = aggregate(
        per_scheme, evaluate.IAA_METRICS[scheme], weights=None if intervals else False
    )
    return {"topics": topics, "overall": overall}


def score_from_records(scheme: str, records: Sequence[Record]) -> dict[str, Any]:
    """What ``api.score_scico`` (``keep_singletons`` and the count as the records were made)
    or ``api.score_chemu`` returns without intervals, from the (gold, system) records of the
    topics in gold order."""
    parts = [record[scheme] for record in records]
    result: dict[str, Any] = {
        "mention_detection": {
            kind: add_counts(part[f"mention_{kind}"] for part in parts).prf()
            for kind in ("exact", "relaxed")
        }
    }
    if scheme == "chemu":
        for kind in ("exact", "relaxed"):
            per_type = {
                name: add_counts(part["relation_types"][kind][name] for part in parts)
                for name in LINK_TYPES
            }
            result[kind] = {
                "overall": add_counts(per_type.values()).prf(),
                "per_type": {name: counts.prf() for name, counts in per_type.items()},
            }
        result["anaphors"] = {
            kind: add_counts(part[f"anaphor_{kind}"] for part in parts).prf()
            for kind in ("exact", "relaxed")
        }
        return result
    coref = [part["coref"] for part in parts]
    result["mentions"] = add_counts(c["mentions"] for c in coref).prf()
    totals = {name: add_counts(c[name] for c in coref) for name in ("muc", "bcub", "ceafe", "lea")}
    result.update({name: counts.prf() for name, counts in totals.items()})
    result["conll_f1"] = evaluate.conll_from_totals(totals)
    result["hierarchy"] = add_counts(part["hierarchy"] for part in parts).prf()
    result["hierarchy_50"] = add_counts(part["hierarchy_50"] for part in parts).prf()
    result["hierarchy_f1_raw"] = add_counts(part["hierarchy_raw"] for part in parts).prf()
    path = [part["path"] for part in parts]
    result["path_ratio"] = {"micro": evaluate.path_micro(path), "macro": evaluate.path_macro(path)}
    return result
