"""The agreement report computed from scratch on every call: every pair of submitted
annotations read from the database and scored again (the report before the per-pair counts
were stored).

Kept under tests/ as the reference the stored path (reporting/selectors/agreement.py) is
tested against, to the last digit, and as the bench's baseline (bench/agreement_db.py); the
product never calls it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from annotation.models import Annotation, Project
from annotation.selectors.gold import gold_annotations
from annotation.selectors.topic_data import annotations_topic_data, document_token_counts
from annotation.validation_hooks import validation_measures
from corefscore.scoring import api
from reporting.domain.agreement_coverage import add_coverage
from reporting.selectors.agreement_attributes import project_attribute_agreement
from reporting.selectors.agreement_gold import prf_at, vs_gold_section
from reporting.selectors.agreement_notices import report_notices
from reporting.selectors.agreement_pairs import (
    KEEP_SINGLETONS,
    practice_topics_submitted,
    submitted_work,
    unscored_topics,
)


def project_agreement_scratch(project: Project) -> dict:
    """What `project_agreement` answers, every pair scored now."""
    annotations = list(
        Annotation.objects.submitted()
        .annotator_work()
        .of_project(project)
        .without_practice(project)
        .order_by("topic__position", "topic_id")
        .only("id", "topic_id", "assignment__user__username")
        .select_related("assignment__user")
    )
    data = annotations_topic_data(annotations, scoring=True)
    counts = document_token_counts({a.topic_id for a in annotations})
    by_annotator: dict[str, list] = {}
    for annotation in annotations:
        plain = replace(
            api.from_topic(data[annotation.pk]), token_counts=counts.get(annotation.topic_id, ())
        )
        by_annotator.setdefault(annotation.assignment_of_work.user.get_username(), []).append(plain)
    names = sorted(by_annotator)
    lists = [by_annotator[name] for name in names]
    result: dict = {
        "project": project.name,
        "scheme": project.scheme,
        "annotators": names,
        "hierarchy_count": project.hierarchy_count,
        "notices": report_notices(project),
        "topics": {},
        "overall": {},
    }
    for scheme, on in (("scico", project.hierarchy), ("chemu", project.anaphora)):
        if not on:
            continue
        part = api.iaa(lists, scheme=scheme, names=names)
        for topic, metrics in part["topics"].items():
            result["topics"].setdefault(topic, {}).update(metrics)
        result["overall"].update(part["overall"])
    result["unscored_topics"] = unscored_topics(project, [a.topic_id for a in annotations])
    add_coverage(
        result,
        practice_topics=practice_topics_submitted(project),
        keep_singletons=KEEP_SINGLETONS,
    )
    result["vs_gold"] = annotators_vs_gold_scratch(project)
    if project.validation:
        result["validation"] = validation_measures(project)
    # (never stored: computed from the annotations as the report computes it)
    result["attributes"] = project_attribute_agreement(project, submitted_work(project))
    return result


def annotators_vs_gold_scratch(project: Project) -> dict[str, Any]:
    gold = gold_annotations(project)
    metrics, section = vs_gold_section(project, gold)
    if not gold:
        return section
    work = list(
        Annotation.objects.submitted()
        .annotator_work()
        .filter(topic_id__in=list(gold))
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
        scores = {
            metric: prf_at(answers, metric, project.hierarchy, path)
            for metric, path in metrics.items()
        }
        section["annotators"].append({"annotator": name, "topics": len(done), "scores": scores})
    return section
