"""Per-pair counts as stored rows, and the reports rebuilt from them (docs/agreement-store.md).

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

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from corefscore.corpus import LINK_TYPES
from corefscore.metrics.counts import Counts, add_counts
from corefscore.metrics.iaa import aggregate
from corefscore.scoring import evaluate
from corefscore.scoring.plain import TopicAnnotation

OPTIONS_VERSION = 3  # 2: per-type mention alpha units; 3: no path counts without a hierarchy
SCHEMES = ("scico", "chemu")

Record = dict[str, dict[str, Any]]  # scheme -> what evaluate.pair gives
StoredRecord = dict[str, Any]  # a Record's JSON form (record_json), as a row holds it


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


def record_json(record: Record) -> StoredRecord:
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


# The count vectors of a stored record's JSON, per scheme, in one fixed order: the report
# reads each as a column block straight from the JSON lists (no Counts per pair and topic),
# and a metric's ``vector`` is some of these columns (found by :func:`vector_columns`).
VECTOR_FIELDS: dict[str, tuple[tuple[tuple[str, ...], int], ...]] = {
    "scico": (
        (("coref", "muc"), 4),
        (("coref", "bcub"), 4),
        (("coref", "ceafe"), 4),
        (("coref", "lea"), 4),
        (("hierarchy",), 4),
        (("hierarchy_raw",), 4),
        (("hierarchy_50",), 4),
        (("path",), 2),
        (("mention_exact",), 4),
        (("mention_relaxed",), 4),
    ),
    "chemu": (
        (("relation_exact",), 4),
        (("relation_relaxed",), 4),
        (("mention_exact",), 4),
        (("mention_relaxed",), 4),
        (("anaphor_exact",), 4),
        (("anaphor_relaxed",), 4),
    ),
}


@functools.cache
def vector_columns(scheme: str) -> dict[str, list[int]]:
    """Metric name -> which columns of a record's :data:`VECTOR_FIELDS` row its ``vector``
    is, for the IAA metrics of ``scheme`` with a vector form. Found by running each metric's
    own ``extract`` and ``vector`` on a probe record whose numbers are their column indices,
    so the layout cannot drift from the metric table."""
    probe: dict[str, Any] = {}
    column = 0
    for path, width in VECTOR_FIELDS[scheme]:
        place = probe
        for key in path[:-1]:
            place = place.setdefault(key, {})
        place[path[-1]] = list(range(column, column + width))
        column += width
    decoded = record_from_json({scheme: probe})[scheme]
    columns: dict[str, list[int]] = {}
    for metric in evaluate.IAA_METRICS[scheme]:
        if metric.vector is None or metric.score_sums is None:
            continue
        try:
            columns[metric.name] = [int(value) for value in metric.vector(metric.extract(decoded))]
        except KeyError:  # reads a field not in VECTOR_FIELDS: scored from decoded records
            continue
    return columns


def _vector_rows(records: Sequence[StoredRecord], scheme: str) -> Any:
    """(records x columns) float array of the records' :data:`VECTOR_FIELDS`, one column
    block per field (float64 holds every stored count exactly, as ``metric.vector`` rows
    turned into arrays do)."""
    import numpy

    parts = [record[scheme] for record in records]
    blocks = []
    for path, width in VECTOR_FIELDS[scheme]:
        values: list[Any] = parts
        for key in path:
            values = [value[key] for value in values]
        blocks.append(numpy.asarray(values, dtype=numpy.float64).reshape(len(parts), width))
    return numpy.hstack(blocks)


def iaa_from_records(
    results: Mapping[str, Mapping[str, StoredRecord]], scheme: str, *, intervals: bool = True
) -> dict[str, Any]:
    """``results[topic][pair]`` (records in their JSON form, :func:`record_json`) ->
    ``{"topics", "overall"}`` as ``api.iaa`` gives them, for one scheme (topics and pairs in
    the order ``api.iaa`` would put them).

    The metrics with a vector form are scored from arrays built straight from the JSON
    lists, one (topics x columns) array per pair (``aggregate``'s ``vectors``: the same
    floats as from decoded records); only the others (Krippendorff's alpha) decode records."""
    by_pair: dict[str, list[StoredRecord]] = {}
    for pairs in results.values():
        for pair, record in pairs.items():
            by_pair.setdefault(pair, []).append(record)
    rows = {pair: _vector_rows(records, scheme) for pair, records in by_pair.items()}
    columns = vector_columns(scheme)
    vectors = {
        name: {pair: array[:, wanted] for pair, array in rows.items()}
        for name, wanted in columns.items()
    }
    metrics = evaluate.IAA_METRICS[scheme]
    if all(metric.name in columns for metric in metrics):
        per_scheme: Mapping[str, Mapping[str, Any]] = results  # (never read: all from arrays)
    else:
        per_scheme = {
            topic: {
                pair: record_from_json({scheme: record[scheme]})[scheme]
                for pair, record in pairs.items()
            }
            for topic, pairs in results.items()
        }
    topics, overall = aggregate(
        per_scheme, metrics, weights=None if intervals else False, vectors=vectors
    )
    return {"topics": topics, "overall": overall}


def score_from_records(scheme: str, records: Sequence[StoredRecord]) -> dict[str, Any]:
    """What ``api.score_scico`` (``keep_singletons`` and the count as the records were made)
    or ``api.score_chemu`` returns without intervals, from the (gold, system) records of the
    topics in gold order, in their JSON form: counts are added straight from the stored
    lists (:func:`_add_stored`), with no ``Counts`` per topic."""
    parts = [record[scheme] for record in records]
    result: dict[str, Any] = {
        "mention_detection": {
            kind: _add_stored(part[f"mention_{kind}"] for part in parts).prf()
            for kind in ("exact", "relaxed")
        }
    }
    if scheme == "chemu":
        for kind in ("exact", "relaxed"):
            per_type = {
                name: _add_stored(part["relation_types"][kind][name] for part in parts)
                for name in LINK_TYPES
            }
            result[kind] = {
                "overall": add_counts(per_type.values()).prf(),
                "per_type": {name: counts.prf() for name, counts in per_type.items()},
            }
        result["anaphors"] = {
            kind: _add_stored(part[f"anaphor_{kind}"] for part in parts).prf()
            for kind in ("exact", "relaxed")
        }
        return result
    coref = [part["coref"] for part in parts]
    result["mentions"] = _add_stored(c["mentions"] for c in coref).prf()
    totals = {name: _add_stored(c[name] for c in coref) for name in ("muc", "bcub", "ceafe", "lea")}
    result.update({name: counts.prf() for name, counts in totals.items()})
    result["conll_f1"] = evaluate.conll_or_none(totals)
    result["hierarchy"] = _add_stored(part["hierarchy"] for part in parts).prf()
    result["hierarchy_50"] = _add_stored(part["hierarchy_50"] for part in parts).prf()
    result["hierarchy_f1_raw"] = _add_stored(part["hierarchy_raw"] for part in parts).prf()
    path = [part["path"] for part in parts]
    result["path_ratio"] = {"micro": evaluate.path_micro(path), "macro": evaluate.path_macro(path)}
    return result


def _add_stored(rows: Iterable[Sequence[float]]) -> Counts:
    """``add_counts`` of stored counts (lists of four): the same additions in the same order
    (from 0, topic after topic), so the same numbers."""
    p_num: float = 0
    p_den: float = 0
    r_num: float = 0
    r_den: float = 0
    for a, b, c, d in rows:
        p_num += a
        p_den += b
        r_num += c
        r_den += d
    return Counts(p_num, p_den, r_num, r_den)
