"""A project's inter-annotator agreement, computed from the database by the scoring engine.

The submitted annotator annotations (adjudications and unsubmitted work are left out) go to
`annotation.domain.scoring.api.iaa`, one list per annotator named by username, topics in the
project's order: the same engine and the same input order as `python -m
annotation.domain.scoring iaa` on the project exported to files, so the numbers agree to the
last digit. Hierarchy projects get the SciCo metrics, anaphora projects the ChEMU-Ref ones,
projects with both schemes both.

Every topic with fewer than two submitted annotations is listed as unscored (including those
nobody submitted yet), in project order.
"""

from __future__ import annotations

import io
from dataclasses import replace

from annotation import gates
from annotation.domain.scoring import api
from annotation.models import Annotation, Assignment, Project, Topic
from annotation.selectors.agreement_gold import annotators_vs_gold, vs_gold_csv_write
from annotation.selectors.topic_data import annotations_topic_data, document_token_counts
from annotation.validation_hooks import validation_csv_write, validation_measures


def project_agreement(project: Project) -> dict:
    """`{"project", "scheme", "annotators", "topics", "overall", "unscored_topics"}`; `topics`
    and `overall` are as `api.iaa` returns them (metrics of both schemes merged). Practice
    topics are left out (the practice gate): they measure annotators against gold."""
    practice = gates.practice_topic_ids(project.pk)
    annotations = list(
        Annotation.objects.filter(
            topic__project=project,
            kind=Annotation.Kind.ANNOTATOR,
            assignment__status=Assignment.Status.SUBMITTED,
        )
        .exclude(topic_id__in=practice)
        .order_by("topic__position", "topic_id")
        .only("id", "topic_id", "assignment__user__username")
        .select_related("assignment__user")
    )
    # Scores need token counts, not tokens: a 200-topic project has over a million tokens.
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
        # which hierarchy F1 (hierarchy_f1: closure, hierarchy_f1_raw: SciCo's) comes first
        "hierarchy_count": project.hierarchy_count,
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
    submitted: dict[int, int] = {}
    for annotation in annotations:
        submitted[annotation.topic_id] = submitted.get(annotation.topic_id, 0) + 1
    result["unscored_topics"] = [
        external_id
        for id, external_id in Topic.objects.filter(project=project)
        .exclude(pk__in=practice)
        .order_by("position", "id")
        .values_list("id", "external_id")
        if submitted.get(id, 0) < 2
    ]
    result["vs_gold"] = annotators_vs_gold(project)
    if project.validation:
        result["validation"] = validation_measures(project)
    return result


def agreement_csv(result: dict) -> str:
    """The report as CSV text (layout: the scoring engine's `iaa_csv`)."""
    stream = io.StringIO()
    api.write_iaa_csv(result, stream)
    if result.get("vs_gold", {}).get("annotators"):
        vs_gold_csv_write(result["vs_gold"], stream)
    if "validation" in result:
        validation_csv_write(result["validation"], stream)
    return stream.getvalue()


def project_agreement_csv(project: Project) -> str:
    return agreement_csv(project_agreement(project))
