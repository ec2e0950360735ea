"""Annotator vs gold, a section of the agreement report: each annotator's submitted work
scored against each topic's gold (`selectors.gold`: the latest submitted adjudication, else
the imported gold), precision, recall and F1 per metric, micro over the topics that have
both (counts added topic by topic, then divided: `api.score_scico` / `api.score_chemu`).

Layout of the JSON and of the CSV section: docs/agreement-csv.md, "Annotator vs gold".
"""

from __future__ import annotations

import csv
from dataclasses import replace
from typing import IO, Any

from annotation.domain.scoring import api
from annotation.models import Annotation, Assignment, Project
from annotation.selectors.gold import gold_annotations
from annotation.selectors.topic_data import annotations_topic_data, document_token_counts

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


def annotators_vs_gold(project: Project) -> dict[str, Any]:
    """`{"gold_topics", "adjudicated_topics", "metrics", "annotators": [{"annotator",
    "topics", "scores": {metric: {"precision", "recall", "f1"}}}]}`, annotators by name;
    `metrics` lists the metrics in report order (the project's schemes)."""
    gold = gold_annotations(project)
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
    }
    if not gold:
        return section
    work = list(
        Annotation.objects.filter(
            topic_id__in=list(gold),
            kind=Annotation.Kind.ANNOTATOR,
            assignment__status=Assignment.Status.SUBMITTED,
        )
        .select_related("assignment__user", "topic")
        .order_by("topic__position", "topic_id")
    )
    data = annotations_topic_data([*gold.values(), *work], scoring=True)
    counts = document_token_counts(set(gold))

    def plain(annotation: Annotation) -> api.TopicAnnotation:
        topic = api.from_topic(data[annotation.pk])
        return replace(topic, token_counts=counts.get(annotation.topic_id, ()))

    by_user: dict[str, list[Annotation]] = {}
    for annotation in work:
        by_user.setdefault(annotation.assignment_of_work.user.get_username(), []).append(annotation)
    for name in sorted(by_user):
        done = by_user[name]
        keys = [plain(gold[a.topic_id]) for a in done]
        responses = [plain(a) for a in done]
        answers = {}
        if project.hierarchy:
            answers["scico"] = api.score_scico(keys, responses, intervals=False)
        if project.anaphora:
            answers["chemu"] = api.score_chemu(keys, responses, intervals=False)
        scores = {}
        for metric, path in metrics.items():
            # (mention detection is in both answers, with the same numbers: either will do)
            answer = answers["scico" if metric in SCICO_METRICS and project.hierarchy else "chemu"]
            scores[metric] = _prf(answer, path)
        section["annotators"].append({"annotator": name, "topics": len(done), "scores": scores})
    return section


def _prf(answer: dict[str, Any], path: tuple[str, ...]) -> dict[str, float | None]:
    value: Any = answer
    for key in path:
        value = value[key]
    if isinstance(value, float):  # CoNLL F1
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
    """Append the section to the report's CSV, after one empty line (a table of its own)."""
    stream.write("\n")
    csv.writer(stream, lineterminator="\n").writerows(vs_gold_csv_rows(section))


def _cell(value: float | None) -> str:
    return "" if value is None else repr(float(value))
