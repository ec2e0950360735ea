"""Agreement on the project's link attributes, from the submitted annotator work
(corefscore.metrics.attributes says what is compared and how)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from annotation.models import Annotation, Project
from annotation.selectors.topic_data import annotations_topic_data
from corefscore.metrics.attributes import attribute_agreement

ATTRIBUTE_CSV_HEADER = ["attribute", "pair", "units", "observed", "kappa", "alpha"]


def project_attribute_agreement(project: Project, work: Sequence[tuple]) -> dict[str, Any]:
    """name -> its agreement, for each attribute the project defines (empty without
    anaphora or attributes). `work`: `agreement_pairs.submitted_work` rows."""
    names = [attribute["name"] for attribute in project.attributes or ()]
    if not project.anaphora or not names:
        return {}
    stubs = [Annotation(pk=row[0], topic_id=row[2]) for row in work]
    data = annotations_topic_data(stubs, scoring=True)
    by_annotator: dict[str, dict[Hashable, dict[str, str]]] = {}
    for id, _, topic_id, _, username in work:
        topic = data[id]
        links = by_annotator.setdefault(username, {})
        for link in topic.links:
            anaphor, antecedent = topic.mentions[link.anaphor], topic.mentions[link.antecedent]
            links[topic_id, link.type, anaphor.key, antecedent.key] = link.attributes
    return attribute_agreement(dict(sorted(by_annotator.items())), names)


def attribute_csv_rows(section: dict[str, Any]) -> list[list[Any]]:
    """One row per attribute and annotator pair, then one per attribute over all of them."""
    rows: list[list[Any]] = [list(ATTRIBUTE_CSV_HEADER)]
    for name, part in section.items():
        for pair, scores in part["pairs"].items():
            rows.append([name, pair, scores["units"], scores["observed"], scores["kappa"], ""])
        rows.append([name, "all", part["units"], part["observed"], "", part["alpha"]])
    return rows
