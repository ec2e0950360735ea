"""Exports: which annotation is written where, and what an annotation reads back as."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotation.models import Document
from annotation.selectors.topic_data import annotation_topic_data, topic_data
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.exports import ExportRefused, annotations_export
from annotation.services.imports.annotation import annotation_import_for_assignment
from annotation.services.imports.topics import topics_import
from annotation.services.operations import annotation_operation_apply
from corefscore.formats import read
from tests.factories import ProjectFactory, UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db

from tests.paths import DEMO


@pytest.fixture
def agreement_project():
    """The SciCo demo topics with gold, and annotator A's and B's files submitted by alice and
    bob."""
    project = ProjectFactory(name="agreement")
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")
    topics = {t.external_id: t for t in project.topics.all()}
    for username, file in (
        ("alice", "scico_demo_annotator_a.jsonl"),
        ("bob", "scico_demo_annotator_b.jsonl"),
    ):
        user = UserFactory(username=username)
        for data in read("scico", DEMO / file).topics:
            assignment = assignment_create(topic=topics[data.external_id], user=user)
            annotation_import_for_assignment(assignment=assignment, topic=data)
            assignment_submit(assignment_id=assignment.pk, user=user)
    return project


def export(*args):
    out = StringIO()
    call_command("export_annotations", *args, stdout=out)
    return out.getvalue()


def test_the_default_source_is_the_gold_when_the_project_has_gold(agreement_project, tmp_path):
    out = export("--project", "agreement", "--format", "scico", str(tmp_path / "gold.jsonl"))

    assert out.startswith("source: gold\nwrote ")
    assert (
        read("scico", tmp_path / "gold.jsonl").topics
        == read("scico", DEMO / "scico_demo.jsonl").topics
    )


def test_submitted_writes_one_file_per_annotator_named_after_the_username(
    agreement_project, tmp_path
):
    export("--project", "agreement", "--format", "scico", "--source", "submitted", str(tmp_path))

    assert sorted(p.name for p in tmp_path.iterdir()) == ["alice.jsonl", "bob.jsonl"]
    assert (
        read("scico", tmp_path / "alice.jsonl").topics
        == read("scico", DEMO / "scico_demo_annotator_a.jsonl").topics
    )


@pytest.mark.parametrize(
    ("format", "records"), [("corefi", 6), ("brat", 112)]
)  # brat: a pair per document
def test_folder_formats_write_one_folder_per_annotator(
    agreement_project, tmp_path, format, records
):
    annotations_export(project=agreement_project, format=format, out=tmp_path, source="submitted")

    assert sorted(p.name for p in tmp_path.iterdir()) == ["alice", "bob"]
    assert len(read(format, tmp_path / "bob").topics) == records


def test_a_username_exports_that_users_annotations(agreement_project, tmp_path):
    annotations_export(
        project=agreement_project, format="conll", out=tmp_path / "bob.conll", source="bob"
    )

    assert (tmp_path / "bob.conll").read_text().count("#begin document") == 6


def test_all_includes_annotations_not_submitted_yet(agreement_project, tmp_path):
    assignment_create(topic=agreement_project.topics.first(), user=UserFactory(username="carol"))

    result = annotations_export(
        project=agreement_project, format="scico", out=tmp_path, source="all"
    )

    assert [w.path.name for w in result.written] == ["alice.jsonl", "bob.jsonl", "carol.jsonl"]


def test_without_gold_the_submitted_adjudication_is_exported(tmp_path):
    project = ProjectFactory()
    topic = make_topic(project)
    adjudicator = UserFactory()
    assignment = assignment_create(topic=topic, user=adjudicator, role="adjudicator")
    annotation = assignment.annotation
    for version, mention in enumerate(mention_ids(topic)):
        annotation_operation_apply(
            annotation_id=annotation.pk,
            user=adjudicator,
            expected_version=version,
            payload={"op": "assign", "mention": mention, "cluster": None},
        )
    assignment_submit(assignment_id=assignment.pk, user=adjudicator)

    result = annotations_export(project=project, format="scico", out=tmp_path / "out.jsonl")

    assert result.source == "adjudicated"
    assert len(read("scico", tmp_path / "out.jsonl").topics[0].clusters) == 7


def test_a_project_with_nothing_to_export_is_refused(tmp_path):
    project = ProjectFactory()
    make_topic(project)

    with pytest.raises(ExportRefused, match="no adjudicated annotations"):
        annotations_export(project=project, format="scico", out=tmp_path / "x.jsonl")


def test_an_unknown_source_is_refused_with_the_choices(agreement_project, tmp_path):
    with pytest.raises(CommandError, match="no source or user named 'nobody'"):
        export(
            "--project",
            "agreement",
            "--format",
            "scico",
            "--source",
            "nobody",
            str(tmp_path / "x.jsonl"),
        )


def test_an_annotation_reads_back_with_added_mentions_and_fixed_spans_but_without_rejected_ones():
    project = ProjectFactory(
        hierarchy=False,
        anaphora=True,
        allow_add_mentions=True,
        allow_fix_spans=True,
        allow_reject_mentions=True,
    )
    topic = make_topic(project)
    user = UserFactory()
    _, annotation = assign(topic, user)
    m = mention_ids(topic)
    document = Document.objects.get(topic=topic, position=2).pk
    for version, op in enumerate(
        [
            {"op": "add_mention", "document": document, "spans": [[3, 3]]},
            {"op": "fix_span", "mention": m[6], "spans": [[5, 5], [7, 7]]},
            {"op": "reject_mention", "mention": m[0]},
            {"op": "add_link", "type": "COREFERENCE", "anaphor": m[6], "antecedent": m[5]},
        ]
    ):
        annotation_operation_apply(
            annotation_id=annotation.pk, user=user, payload=op, expected_version=version
        )

    data = annotation_topic_data(annotation)

    assert [(x.document, x.spans) for x in data.mentions] == [
        (0, ((6, 7),)),
        (1, ((0, 1),)),
        (1, ((4, 4),)),
        (1, ((7, 8),)),
        (2, ((0, 1),)),
        (2, ((5, 5), (7, 7))),
        (2, ((3, 3),)),
    ]
    assert [(link.type, link.anaphor, link.antecedent) for link in data.links] == [
        ("COREFERENCE", 5, 4)
    ]
    assert len(topic_data(topic).mentions) == 7


def test_renamed_labels_and_notes_are_exported_and_default_labels_are_not(agreement_project):
    annotation = agreement_project.topics.get(external_id="9001").annotations.get(kind="gold")
    cluster = annotation.clusters.order_by("id").first()
    cluster.label, cluster.note = "Sequence labelling", "umbrella task"
    cluster.save()

    data = annotation_topic_data(annotation)

    assert (data.clusters[0].label, data.clusters[0].note) == (
        "Sequence labelling",
        "umbrella task",
    )
    assert all(c.label is None for c in data.clusters[1:])


def test_the_chemu_demo_exports_back_to_the_same_lines(tmp_path):
    project = ProjectFactory(hierarchy=False, anaphora=True)
    topics_import(project=project, path=DEMO / "chemu_demo.jsonlines", format="chemu")

    annotations_export(project=project, format="chemu", out=tmp_path / "out.jsonlines")

    original = [
        json.loads(line) for line in (DEMO / "chemu_demo.jsonlines").read_text().splitlines()
    ]
    assert [
        json.loads(line) for line in (tmp_path / "out.jsonlines").read_text().splitlines()
    ] == original
