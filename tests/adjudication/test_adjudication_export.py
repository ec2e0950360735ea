"""After submission the adjudicated annotation is the topic's gold for export: with
`--source adjudicated`, and by default where it exists (imported gold elsewhere)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from adjudication.services.adjudications import create_adjudication
from annotation.services.assignments import assignment_submit
from corefscore.formats import read
from tests.factories import UserFactory
from tests.paths import DEMO, SCICO_DEMO

ANNOTATOR_A = DEMO / "scico_demo_annotator_a.jsonl"
pytestmark = [pytest.mark.django_db, pytest.mark.project(annotators={"alice": ANNOTATOR_A.name})]


def adjudicate_first_topic(project) -> str:
    topic = project.topics.order_by("position").first()
    judge = UserFactory(username="judge")
    assignment = create_adjudication(topic=topic, user=judge, seed="alice")
    assignment_submit(assignment_id=assignment.pk, user=judge)
    return topic.external_id


def export(tmp_path, *source: str):
    out = tmp_path / "out.jsonl"
    printed = StringIO()
    call_command(
        "export_annotations", "--project", "SciCo", "--format", "scico", *source, str(out),
        stdout=printed,
    )  # fmt: skip
    return {t.external_id: t for t in read("scico", out).topics}, printed.getvalue()


def clusters(topic) -> list[list[tuple]]:
    members: dict[str, list] = {}
    for mention in topic.mentions:
        if mention.cluster is not None:
            members.setdefault(mention.cluster, []).append(mention.key)
    return sorted(sorted(m) for m in members.values())


def test_the_default_export_takes_the_adjudication_where_there_is_one_and_gold_elsewhere(
    project, tmp_path
):
    adjudicated = adjudicate_first_topic(project)
    annotator = {t.external_id: t for t in read("scico", ANNOTATOR_A).topics}
    imported = {t.external_id: t for t in read("scico", SCICO_DEMO).topics}
    assert clusters(annotator[adjudicated]) != clusters(imported[adjudicated])

    written, printed = export(tmp_path)

    assert "source: adjudicated, else gold" in printed
    assert set(written) == set(imported)
    assert clusters(written[adjudicated]) == clusters(annotator[adjudicated])
    for topic_id in set(imported) - {adjudicated}:
        assert clusters(written[topic_id]) == clusters(imported[topic_id])


def test_source_adjudicated_exports_the_submitted_adjudications_only(project, tmp_path):
    adjudicated = adjudicate_first_topic(project)

    written, _ = export(tmp_path, "--source", "adjudicated")

    assert list(written) == [adjudicated]


def test_an_adjudication_not_yet_submitted_is_not_gold(project, tmp_path):
    topic = project.topics.order_by("position").first()
    create_adjudication(topic=topic, user=UserFactory(), seed="alice")
    imported = {t.external_id: t for t in read("scico", SCICO_DEMO).topics}

    written, printed = export(tmp_path)

    assert "source: gold" in printed
    assert clusters(written[topic.external_id]) == clusters(imported[topic.external_id])
