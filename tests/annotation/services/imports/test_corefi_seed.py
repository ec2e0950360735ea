"""A CoRefi annotation-mode file's one seeded cluster is the annotators' starting point, not
the topic's gold; a file that gives every mention a cluster id stays gold."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from annotation.domain.history import replay
from annotation.models import Annotation, Assignment, ClusterMember, Operation, Topic
from annotation.selectors.progress import project_progress
from annotation.selectors.state import annotation_initial_state, annotation_state_load
from annotation.services.assignments import (
    assignment_create,
    assignment_reassign,
    assignments_bulk_create,
)
from annotation.services.exports import annotations_export
from annotation.services.imports.annotation import annotation_import_for_assignment
from annotation.services.imports.topics import topics_import
from annotation.services.operations import annotation_operation_apply
from annotation.services.topic_changes import topic_delete
from corefapp.archives.json_ids import effects_remap, payload_remap
from corefscore.formats import read
from tests.factories import ProjectFactory, UserFactory
from tests.paths import COREFI_DATA

pytestmark = pytest.mark.django_db

SEEDED = [
    "annotation_example.json",
    "mt_annotation.json",
    "review_example.json",
    "scirex_example_.json",
    "sentiment_examples.json",
    "trial_hmm.json",
    "trial_image_generation.json",
    "trial_speech.json",
    "trial_text_generation.json",
]
GOLD = ["guided_mt.json", "guided_sentiment.json", "scientific_onboarding_tutorial.json"]


def test_the_corefi_examples_with_a_partial_cluster_id_become_seeds_the_others_gold():
    project = ProjectFactory()

    result = topics_import(project=project, path=COREFI_DATA, format="corefi")

    gold = Annotation.objects.filter(topic__project=project, kind=Annotation.Kind.GOLD)
    topic_id = {p: read("corefi", COREFI_DATA / p).topics[0].external_id for p in SEEDED + GOLD}
    assert sorted(gold.values_list("topic__external_id", flat=True)) == sorted(
        topic_id[p] for p in GOLD
    )
    assert (result.gold, result.seeded) == (3, 9)
    assert "3 with a gold annotation, 9 with a seed for the annotators" in str(result)
    mt = Topic.objects.get(project=project, external_id=topic_id["mt_annotation.json"])
    assert f"topic {mt.external_id}: the file gives a cluster id to 1 of 31 mentions" in "\n".join(
        map(str, result.warnings)
    )


def test_every_new_annotator_starts_from_the_seed_as_one_logged_operation():
    project = ProjectFactory()
    topics_import(project=project, path=COREFI_DATA / "scirex_example_.json", format="corefi")
    topic = Topic.objects.get(project=project)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")

    assignment_create(topic=topic, user=alice)
    assignments_bulk_create(topics=[topic], users=[bob])

    for user in (alice, bob):
        annotation = Annotation.objects.get(assignment__topic=topic, assignment__user=user)
        members = ClusterMember.objects.filter(annotation=annotation)
        assert [(m.mention.position, m.cluster.label) for m in members] == [
            (0, "Neural Machine Translation")
        ]
        log = list(Operation.objects.filter(annotation=annotation).order_by("version"))
        assert [(o.kind, o.name, o.version, o.user) for o in log] == [("do", "seed", 1, None)]
        assert replay(annotation_initial_state(annotation), log).snapshot() == (
            annotation_state_load(annotation).snapshot()
        )
        assert not annotation.has_work
    assert not Annotation.objects.filter(topic=topic).worked().exists()


def test_an_assignment_holding_only_its_seed_is_untouched_work():
    project = ProjectFactory()
    topics_import(project=project, path=COREFI_DATA / "trial_speech.json", format="corefi")
    topic = Topic.objects.get(project=project)
    assignment = assignment_create(topic=topic, user=UserFactory())

    # no "has started this topic ... confirm with discard_work"
    moved = assignment_reassign(assignment_id=assignment.pk, user=UserFactory())
    assert moved.annotation.version == 1  # the new annotator has the seed too

    topic_delete(topic=topic)
    assert not Topic.objects.filter(pk=topic.pk).exists()


def test_an_annotators_corefi_export_gives_the_seed_file_back(tmp_path):
    project = ProjectFactory()
    path = COREFI_DATA / "mt_annotation.json"
    topics_import(project=project, path=path, format="corefi")
    assignment_create(topic=Topic.objects.get(project=project), user=UserFactory(username="ann"))

    annotations_export(project=project, format="corefi", out=tmp_path, source="ann")

    topic_id = read("corefi", path).topics[0].external_id
    exported = json.loads((tmp_path / f"{topic_id}.json").read_text())
    assert exported == json.loads(path.read_text())


def test_an_annotators_file_replaces_the_seed_of_an_untouched_annotation():
    project = ProjectFactory()
    path = COREFI_DATA / "trial_hmm.json"
    topics_import(project=project, path=path, format="corefi")
    assignment = assignment_create(topic=Topic.objects.get(project=project), user=UserFactory())
    file = read("corefi", path).topics[0]
    for k, mention in enumerate(file.mentions):
        mention.cluster = f"c{k % 3}"  # the annotator's finished work: three clusters

    annotation_import_for_assignment(assignment=assignment, topic=file)

    annotation = Annotation.objects.get(assignment=assignment)
    assert ClusterMember.objects.filter(annotation=annotation).count() == len(file.mentions)
    assert annotation.clusters.count() == 3
    log = list(Operation.objects.filter(annotation=annotation).order_by("version"))
    assert [o.name for o in log] == ["seed", "import"]
    assert replay(annotation_initial_state(annotation), log).snapshot() == (
        annotation_state_load(annotation).snapshot()
    )
    assert Assignment.objects.get(pk=assignment.pk).status == Assignment.Status.IN_PROGRESS


def test_a_project_archive_maps_the_seed_operations_cluster_ids():
    project = ProjectFactory()
    topics_import(project=project, path=COREFI_DATA / "scirex_example_.json", format="corefi")
    assignment = assignment_create(topic=Topic.objects.get(project=project), user=UserFactory())
    seed = Operation.objects.get(annotation=assignment.annotation, name="seed")
    ((cluster, key),) = seed.payload["clusters"]

    mapped = payload_remap(seed.payload, lambda space, id: id + 1000)

    assert mapped["clusters"] == [[cluster + 1000, key]]
    assert mapped["labelled"] == [cluster + 1000]  # the file names it "Neural Machine Translation"
    assert effects_remap(seed.effects, lambda space, id: id)  # every effect is known


def test_a_validation_project_validates_the_files_clusters_however_few_mentions_they_hold():
    project = ProjectFactory(hierarchy=False, validation=True)

    result = topics_import(
        project=project, path=COREFI_DATA / "mt_annotation.json", format="corefi"
    )

    assert (result.gold, result.seeded) == (1, 0)
    assert not Topic.objects.filter(project=project, metadata__has_key="seed").exists()


def test_the_progress_matrix_starts_a_seeded_cell_at_its_seed_and_times_only_the_annotator():
    project = ProjectFactory()
    topics_import(project=project, path=COREFI_DATA / "trial_hmm.json", format="corefi")
    user = UserFactory()
    assignment = assignment_create(topic=Topic.objects.get(project=project), user=user)
    # The seed was handed an hour before the annotator's first change.
    Operation.objects.filter(annotation=assignment.annotation, name="seed").update(
        created_at=timezone.now() - timedelta(hours=1)
    )
    cluster = assignment.annotation.clusters.get()
    annotation_operation_apply(
        annotation_id=assignment.annotation.pk,
        user=user,
        expected_version=1,
        payload={"op": "rename", "cluster": cluster.pk, "label": "the HMM"},
    )

    (row,) = project_progress(project)["cells"]

    assert (row["version"], row["start_version"]) == (2, 1)
    # One change of the annotator's own: no gap to time (counting from the seed gave the cap).
    assert row["seconds_spent"] == 0
