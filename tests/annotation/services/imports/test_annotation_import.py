"""Loading an annotator's file into an assignment: mentions matched by document and spans."""

import json

import pytest

from annotation.domain.history import replay
from annotation.errors import AnnotationLocked, ImportRefused
from annotation.models import Cluster, Operation
from annotation.selectors.state import annotation_initial_state, annotation_state_load
from annotation.selectors.topic_data import annotation_topic_data
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.imports.annotation import annotation_import_for_assignment
from annotation.services.imports.topics import topics_import
from annotation.services.operations import annotation_operation_apply
from corefscore.formats import read
from tests.factories import ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db

from tests.paths import DEMO


@pytest.fixture
def scico():
    project = ProjectFactory()
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")
    topic = project.topics.get(external_id="9001")
    user = UserFactory()
    annotator_a = {
        t.external_id: t for t in read("scico", DEMO / "scico_demo_annotator_a.jsonl").topics
    }
    return assignment_create(topic=topic, user=user), annotator_a["9001"]


def test_an_annotators_file_is_loaded_into_the_empty_annotation_as_one_import_operation(scico):
    assignment, data = scico

    imported = annotation_import_for_assignment(assignment=assignment, topic=data, file="a.jsonl")

    annotation = assignment.annotation
    annotation.refresh_from_db()
    assert annotation.version == imported.version == 1
    assert annotation_topic_data(annotation) == data
    assert list(Operation.objects.filter(annotation=annotation).values_list("name", "kind")) == [
        ("import", "do")
    ]
    assert imported.unmatched == 0
    assert imported.warnings == []


def test_the_imported_annotations_log_replays_to_its_state_and_the_annotator_can_go_on(scico):
    assignment, data = scico
    annotation_import_for_assignment(assignment=assignment, topic=data)
    annotation = assignment.annotation
    annotation.refresh_from_db()
    cluster = Cluster.objects.filter(annotation=annotation).first()

    annotation_operation_apply(
        annotation_id=annotation.pk,
        user=assignment.user,
        expected_version=1,
        payload={"op": "rename", "cluster": cluster.pk, "label": "renamed"},
    )

    log = list(Operation.objects.filter(annotation=annotation).order_by("version"))
    assert (
        replay(annotation_initial_state(annotation), log).snapshot()
        == annotation_state_load(annotation).snapshot()
    )


def test_a_mention_the_topic_does_not_have_is_an_error_naming_it_and_nothing_is_written(scico):
    assignment, data = scico
    data.mentions[3].spans = ((0, 0),)
    data.mentions[7].spans = ((1, 2),)

    with pytest.raises(ImportRefused) as refused:
        annotation_import_for_assignment(assignment=assignment, topic=data, file="a.jsonl")

    def text(k: int) -> str:  # the file's own words for the mention
        mention = data.mentions[k]
        ((start, end),) = mention.spans
        return " ".join(data.documents[mention.document].tokens[start : end + 1])

    assert refused.value.errors == [
        (
            f"a.jsonl: field mentions[3]: document {data.mentions[3].document}, tokens 0-0 "
            f'("{text(3)}") is not a mention of topic 9001'
        ),
        (
            f"a.jsonl: field mentions[7]: document {data.mentions[7].document}, tokens 1-2 "
            f'("{text(7)}") is not a mention of topic 9001'
        ),
    ]
    assert not Cluster.objects.filter(annotation=assignment.annotation).exists()


def test_a_file_for_another_topic_is_refused(scico):
    assignment, data = scico
    data.external_id = "9002"

    with pytest.raises(ImportRefused, match="does not describe this topic"):
        annotation_import_for_assignment(assignment=assignment, topic=data)


def test_an_annotation_that_is_not_empty_is_refused(scico):
    assignment, data = scico
    annotation_import_for_assignment(assignment=assignment, topic=data)

    with pytest.raises(ImportRefused, match="is not empty"):
        annotation_import_for_assignment(assignment=assignment, topic=data)


def test_a_submitted_annotation_is_read_only(scico):
    assignment, data = scico
    annotation_import_for_assignment(assignment=assignment, topic=data)
    assignment_submit(assignment_id=assignment.pk, user=assignment.user)
    assignment.refresh_from_db()

    with pytest.raises(AnnotationLocked):
        annotation_import_for_assignment(assignment=assignment, topic=data)


def test_rules_the_imported_data_breaks_are_kept_and_reported(tmp_path):
    project = ProjectFactory()
    line = {
        "id": 1,
        "tokens": [["a", "b", "c"]],
        "mentions": [[0, 0, 0, 0], [0, 1, 1, 1], [0, 2, 2, 2]],
        "relations": [[0, 2], [1, 2]],
    }
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(line) + "\n")
    topics_import(project=project, path=path, format="scico")
    assignment = assignment_create(topic=project.topics.get(), user=UserFactory())

    imported = annotation_import_for_assignment(
        assignment=assignment, topic=read("scico", path).topics[0]
    )

    assert any("several parents" in warning for warning in imported.warnings)
