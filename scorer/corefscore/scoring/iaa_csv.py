"""The agreement report as CSV (layout documented in docs/agreement-csv.md).

One table, one header, so spreadsheets and ``csv.DictReader`` read it directly; the first
column says what a row is:

- ``topic`` rows: one per topic and metric: topic, metric, avg, max, annotators;
- ``overall`` rows: one per metric: metric, avg, std, max_micro, max_macro;
- ``unscored`` rows: one per topic with fewer than two annotations (topic only).

Numbers are fractions written at full precision (``repr`` of the float); an undefined
score is an empty cell.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator, Mapping
from typing import IO, Any

# The interval columns come last, so readers of the older layout keep their columns.
CI_COLUMNS = [
    f"{figure}_ci_{end}" for figure in ("avg", "max_micro", "max_macro") for end in ("low", "high")
]
HEADER = [
    "scope",
    "topic",
    "metric",
    "avg",
    "max",
    "annotators",
    "std",
    "max_micro",
    "max_macro",
    *CI_COLUMNS,
]
NO_INTERVAL = [""] * len(CI_COLUMNS)


def iaa_csv_rows(result: Mapping[str, Any]) -> list[list[str]]:
    """The rows of the CSV, header first, every cell a string."""
    return list(_rows(result))


def _rows(result: Mapping[str, Any]) -> Iterator[list[str]]:
    # (one row at a time: the writer keeps none of ~10,000 rows alive at 1,000 topics)
    yield list(HEADER)
    annotators: dict[int, str] = {}  # pairs -> annotators (a few values, ~10,000 rows)
    rest = ["", "", "", *NO_INTERVAL]
    for topic, metrics in result["topics"].items():
        for metric, scores in metrics.items():
            pairs = len(scores["pairs"])
            if pairs not in annotators:
                annotators[pairs] = str(_annotators(pairs))
            yield [
                "topic",
                topic,
                metric,
                _cell(scores["avg"]),
                _cell(scores["max"]),
                annotators[pairs],
                *rest,
            ]
    for metric, scores in result["overall"].items():
        yield [
            "overall",
            "",
            metric,
            _cell(scores["avg"]),
            "",
            "",
            _cell(scores["std"]),
            _cell(scores["max_micro"]),
            _cell(scores["max_macro"]),
            *_intervals(scores),
        ]
    for topic in result.get("unscored_topics", []):
        yield ["unscored", topic, "", "", "", "", "", "", "", *NO_INTERVAL]


def write_iaa_csv(result: Mapping[str, Any], stream: IO[str]) -> None:
    """Write :func:`iaa_csv_rows` to a text stream (open it with ``newline=""``)."""
    csv.writer(stream, lineterminator="\n").writerows(_rows(result))


def _intervals(scores: Mapping[str, Any]) -> list[str]:
    """The 95% bootstrap interval cells (empty where the metric has none)."""
    cells = []
    for figure in ("avg", "max_micro", "max_macro"):
        bounds = scores.get(f"{figure}_ci") or (None, None)
        cells += [_cell(bounds[0]), _cell(bounds[1])]
    return cells


def _annotators(pairs: int) -> int:
    """k annotators make k (k - 1) / 2 pairs."""
    return round((1 + math.sqrt(1 + 8 * pairs)) / 2)


def _cell(value: float | None) -> str:
    if type(value) is float:  # (most cells: no conversion)
        return repr(value)
    return "" if value is None else repr(float(value))
