"""A project's inter-annotator agreement, computed from the database by the scoring engine.

The submitted annotator annotations (adjudications and unsubmitted work are left out) go to
`corefscore.scoring.api.iaa`, one list per annotator named by username, topics in the
project's order: the same engine and the same input order as `python -m
corefscore.scoring iaa` on the project exported to files, so the numbers agree to the
last digit. Hierarchy projects get the SciCo metrics, anaphora projects the ChEMU-Ref ones,
projects with both schemes both.

Every topic with fewer than two submitted annotations is listed as unscored (including those
nobody submitted yet), in project order.
"""

from __future__ import annotations

import io

from annotation.models import Project
from annotation.selectors.gold import gold_annotations
from annotation.validation_hooks import validation_measures
from corefscore.scoring import api
from corefscore.scoring.stored import StoredRecord, iaa_from_records
from reporting.domain.agreement_coverage import add_coverage
from reporting.selectors.agreement_attributes import project_attribute_agreement
from reporting.selectors.agreement_gold import annotators_vs_gold
from reporting.selectors.agreement_notices import report_notices
from reporting.selectors.agreement_pairs import (
    KEEP_SINGLETONS,
    agreement_records,
    practice_topics_submitted,
    project_schemes,
    report_pairs,
    submitted_work,
    unscored_topics,
)


def project_agreement(project: Project) -> dict:
    """`{"project", "scheme", "annotators", "topics", "overall", "unscored_topics"}`; `topics`
    and `overall` are as `api.iaa` returns them (metrics of both schemes merged).

    Aggregated from the stored per-pair counts (selectors/agreement_pairs.py: any row
    missing or stale is computed first), in `api.iaa`'s order of topics and pairs, so the
    numbers, intervals included, are those of the from-scratch computation
    (tests/reporting/agreement_scratch.py) to the last digit."""
    work = submitted_work(project)
    gold = gold_annotations(project)
    records = agreement_records(project, report_pairs(work, gold))
    by_name: dict[str, list[tuple]] = {}
    for row in work:
        by_name.setdefault(row[4], []).append(row)
    names = sorted(by_name)
    results = _pair_results(names, by_name, records)
    result: dict = {
        "project": project.name,
        "scheme": project.scheme,
        "annotators": names,
        # which hierarchy F1 (hierarchy_f1: closure, SciCo's; hierarchy_f1_raw: raw edges,
        # not SciCo's) comes first
        "hierarchy_count": project.hierarchy_count,
        "notices": report_notices(project),
        "topics": {},
        "overall": {},
    }
    for scheme in project_schemes(project):
        part = iaa_from_records(results, scheme)
        for topic, metrics in part["topics"].items():
            result["topics"].setdefault(topic, {}).update(metrics)
        result["overall"].update(part["overall"])
    result["unscored_topics"] = unscored_topics(project, [row[2] for row in work])
    add_coverage(
        result,
        practice_topics=practice_topics_submitted(project),
        keep_singletons=KEEP_SINGLETONS,
    )
    result["vs_gold"] = annotators_vs_gold(project, work=work, gold=gold, records=records)
    if project.validation:
        result["validation"] = validation_measures(project)
    # Where two annotators drew the same link: do they give it the same attribute values?
    result["attributes"] = project_attribute_agreement(project, work)
    return result


def _pair_results(
    names: list[str],
    by_name: dict[str, list[tuple]],
    records: dict[tuple[int, int], StoredRecord],
) -> dict[str, dict[str, StoredRecord]]:
    """`results[topic][pair]` in `api.iaa`'s order: topics as the annotators (by name) first
    have them, pairs by the annotators' positions; topics with fewer than two left out."""
    ids: dict[str, dict[str, int]] = {}
    for name in names:
        for id, _, _, external_id, _ in by_name[name]:
            ids.setdefault(external_id, {})[name] = id
    results: dict[str, dict[str, StoredRecord]] = {}
    for external_id, present in ids.items():
        if len(present) < 2:
            continue
        order = [name for name in names if name in present]
        results[external_id] = {
            f"{first}-{second}": records[present[first], present[second]]
            for index, first in enumerate(order)
            for second in order[index + 1 :]
        }
    return results


def agreement_csv(result: dict) -> str:
    """The pairs' table as CSV text (layout: the scoring engine's `iaa_csv`); the report's
    other tables are files of their own (selectors/agreement_files.py)."""
    stream = io.StringIO()
    api.write_iaa_csv(result, stream)
    return stream.getvalue()


def project_agreement_csv(project: Project) -> str:
    return agreement_csv(project_agreement(project))
