"""Annotator vs gold, a section of the agreement report: each annotator's submitted work
scored against each topic's gold (`selectors.gold`: the latest submitted adjudication, else
the imported gold), precision, recall and F1 per metric, micro over the topics that have
both (counts added topic by topic, then divided: `api.score_scico` / `api.score_chemu`).

Layout of the JSON and of the CSV section: docs/agreement-csv.md, "Annotator vs gold".
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from typing import IO, Any

from annotation.models import Annotation, Project
from annotation.selectors.gold import gold_annotations, gold_coverage
from corefscore.scoring.stored import StoredRecord, score_from_records
from reporting.selectors.agreement_pairs import (
    agreement_records,
    project_schemes,
    report_pairs,
    submitted_work,
)

# Metric -> where its {"precision", "recall", "f1"} is in the scorer's answer. CoNLL F1 is an
# average of F1 scores, with no precision or recall of its own: those cells stay empty.
SCICO_METRICS = {
    "mentions": ("mention_detection", "exact"),
    "mentions_relaxed": ("mention_detection", "relaxed"),
    "muc": ("muc",),
    "bcub": ("bcub",),
    "ceafe": ("ceafe",),
    "lea": ("lea",),
    "conll": ("conll_f1",),
    "hierarchy": ("hierarchy",),
    "hierarchy_raw": ("hierarchy_f1_raw",),
    "hierarchy_50": ("hierarchy_50",),
}
CHEMU_METRICS = {
    "mentions": ("mention_detection", "exact"),
    "mentions_relaxed": ("mention_detection", "relaxed"),
    "relation_exact": ("exact", "overall"),
    "relation_relaxed": ("relaxed", "overall"),
    "anaphor_exact": ("anaphors", "exact"),
    "anaphor_relaxed": ("anaphors", "relaxed"),
}
CSV_HEADER = ["section", "annotator", "metric", "precision", "recall", "f1", "topics"]


def annotators_vs_gold(
    project: Project,
    *,
    work: Sequence[tuple] | None = None,
    gold: dict[int, Annotation] | None = None,
    records: Mapping[tuple[int, int], StoredRecord] | None = None,
) -> dict[str, Any]:
    """`{"gold_topics", "adjudicated_topics", "metrics", "annotators": [{"annotator",
    "topics", "scores": {metric: {"precision", "recall", "f1"}}}], "gold_coverage"}`,
    annotators by name; `metrics` lists the metrics in report order (the project's schemes);
    `gold_coverage` is None unless the gold leaves some mentions out of every cluster.

    From the stored per-pair counts (selectors/agreement_pairs.py); the report passes the
    `work`, `gold` and `records` it has read already."""
    gold = gold_annotations(project) if gold is None else gold
    metrics, section = vs_gold_section(project, gold)
    if not gold:
        return section
    work = submitted_work(project, list(gold)) if work is None else work
    if records is None:
        records = agreement_records(project, report_pairs(work, gold, annotators=False))
    by_user: dict[str, list[StoredRecord]] = {}
    for id, _, topic_id, _, username in work:
        if topic_id in gold:
            by_user.setdefault(username, []).append(records[gold[topic_id].pk, id])
    for name in sorted(by_user):
        done = by_user[name]
        answers = {scheme: score_from_records(scheme, done) for scheme in project_schemes(project)}
        scores = {
            metric: prf_at(answers, metric, project.hierarchy, path)
            for metric, path in metrics.items()
        }
        section["annotators"].append({"annotator": name, "topics": len(done), "scores": scores})
    return section


def vs_gold_section(
    project: Project, gold: Mapping[int, Annotation]
) -> tuple[dict[str, tuple[str, ...]], dict[str, Any]]:
    """(metric -> where it is in the scorers' answer, the section with no annotator yet):
    what the stored and the from-scratch (tests/reporting/agreement_scratch.py) sections share."""
    metrics = {
        **(SCICO_METRICS if project.hierarchy else {}),
        **(CHEMU_METRICS if project.anaphora else {}),
    }
    section: dict[str, Any] = {
        "gold_topics": len(gold),
        "adjudicated_topics": sum(
            1 for a in gold.values() if a.kind == Annotation.Kind.ADJUDICATION
        ),
        "metrics": list(metrics),
        "annotators": [],
        # Clusters are what a hierarchy gold gives every mention; a gold of links (anaphora)
        # leaves mentions without a link by design.
        "gold_coverage": gold_coverage(gold).as_dict() if project.hierarchy else None,
    }
    return metrics, section


def prf_at(
    answers: Mapping[str, Any], metric: str, hierarchy: bool, path: tuple[str, ...]
) -> dict[str, float | None]:
    """One metric's precision, recall and F1 from the scorers' answers (per scheme)."""
    # (mention detection is in both answers, with the same numbers: either will do)
    return _prf(answers["scico" if metric in SCICO_METRICS and hierarchy else "chemu"], path)


def _prf(answer: Mapping[str, Any], path: tuple[str, ...]) -> dict[str, float | None]:
    value: Any = answer
    for key in path:
        value = value[key]
    if value is None or isinstance(value, float):  # CoNLL F1 (None: undefined)
        return {"precision": None, "recall": None, "f1": value}
    return {"precision": value["precision"], "recall": value["recall"], "f1": value["f1"]}


def vs_gold_csv_rows(section: dict[str, Any]) -> list[list[str]]:
    rows = [list(CSV_HEADER)]
    for row in section["annotators"]:
        for metric in section["metrics"]:
            scores = row["scores"][metric]
            rows.append(
                [
                    "vs_gold",
                    row["annotator"],
                    metric,
                    *(_cell(scores[k]) for k in ("precision", "recall", "f1")),
                    str(row["topics"]),
                ]
            )
    return rows


def vs_gold_csv_write(section: dict[str, Any], stream: IO[str]) -> None:
    """Write the section as a table of its own (agreement_vs_gold.csv of the report's zip)."""
    csv.writer(stream, lineterminator="\n").writerows(vs_gold_csv_rows(section))


def _cell(value: float | None) -> str:
    return "" if value is None else repr(float(value))
