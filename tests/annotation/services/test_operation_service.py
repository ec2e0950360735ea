"""Operations applied through the service: one transaction, version-checked, logged."""

import pytest

from annotation.domain.errors import CycleError, NothingToUndo
from annotation.domain.history import replay
from annotation.errors import VersionConflict
from annotation.infra import state_cache
from annotation.models import Cluster, ClusterMember, HierarchyEdge, Operation
from annotation.selectors.state import annotation_initial_state, annotation_state_load
from annotation.services.operations import (
    annotation_operation_apply,
    annotation_redo,
    annotation_undo,
)
from tests.factories import UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup():
    state_cache.clear()
    topic = make_topic()
    user = UserFactory()
    _, annotation = assign(topic, user)
    return annotation, user, mention_ids(topic)


def apply(annotation, user, version, **op):
    return annotation_operation_apply(
        annotation_id=annotation.pk, user=user, payload=op, expected_version=version
    )


def test_assigning_a_mention_to_a_new_cluster_stores_it_and_bumps_the_version_once(setup):
    annotation, user, m = setup

    applied = apply(annotation, user, 0, op="assign", mention=m[0], cluster=None)

    annotation.refresh_from_db()
    assert annotation.version == applied.version == 1
    cluster = Cluster.objects.get(annotation=annotation)
    assert cluster.label == "CRF tagger"
    assert list(
        ClusterMember.objects.filter(cluster=cluster).values_list("mention_id", flat=True)
    ) == [m[0]]
    assert Operation.objects.get(annotation=annotation).effects == applied.effects


def test_a_stale_expected_version_is_a_conflict_and_changes_nothing(setup):
    annotation, user, m = setup
    apply(annotation, user, 0, op="assign", mention=m[0], cluster=None)

    with pytest.raises(VersionConflict) as raised:
        apply(annotation, user, 0, op="assign", mention=m[1], cluster=None)

    assert raised.value.details["current_version"] == 1
    assert ClusterMember.objects.filter(annotation=annotation).count() == 1


def test_a_refused_operation_writes_nothing_and_keeps_the_version(setup):
    annotation, user, m = setup
    a = apply(annotation, user, 0, op="assign", mention=m[0], cluster=None).created["cluster"]
    b = apply(annotation, user, 1, op="assign", mention=m[1], cluster=None).created["cluster"]
    apply(annotation, user, 2, op="add_edge", parent=a, child=b)

    with pytest.raises(CycleError):
        apply(annotation, user, 3, op="add_edge", parent=b, child=a)

    annotation.refresh_from_db()
    assert annotation.version == 3
    assert list(
        HierarchyEdge.objects.filter(annotation=annotation).values_list("parent_id", "child_id")
    ) == [(a, b)]


def test_undo_and_redo_survive_a_reload_of_the_state(setup):
    annotation, user, m = setup
    a = apply(annotation, user, 0, op="assign", mention=m[0], cluster=None).created["cluster"]
    apply(annotation, user, 1, op="assign", mention=m[1], cluster=a)
    state_cache.clear()  # as after a server restart

    annotation_undo(annotation_id=annotation.pk, user=user, expected_version=2)
    assert ClusterMember.objects.filter(annotation=annotation).count() == 1
    state_cache.clear()
    annotation_undo(annotation_id=annotation.pk, user=user, expected_version=3)
    assert not Cluster.objects.filter(annotation=annotation).exists()
    with pytest.raises(NothingToUndo):
        annotation_undo(annotation_id=annotation.pk, user=user, expected_version=4)

    annotation_redo(annotation_id=annotation.pk, user=user, expected_version=4)
    assert list(Cluster.objects.filter(annotation=annotation).values_list("id", flat=True)) == [a]


def test_emptying_a_cluster_moves_its_children_to_its_parent_and_undo_restores_it_exactly(setup):
    annotation, user, m = setup
    top = apply(annotation, user, 0, op="assign", mention=m[0], cluster=None).created["cluster"]
    middle = apply(annotation, user, 1, op="assign", mention=m[1], cluster=None).created["cluster"]
    leaf = apply(annotation, user, 2, op="assign", mention=m[2], cluster=None).created["cluster"]
    apply(annotation, user, 3, op="set_parent", child=middle, parent=top)
    apply(annotation, user, 4, op="set_parent", child=leaf, parent=middle)
    apply(annotation, user, 5, op="set_note", cluster=middle, note="keep apart from X")
    before = annotation_state_load(annotation).snapshot()

    apply(annotation, user, 6, op="assign", mention=m[1], cluster=top)

    edges = set(
        HierarchyEdge.objects.filter(annotation=annotation).values_list("parent_id", "child_id")
    )
    assert edges == {(top, leaf)}
    annotation_undo(annotation_id=annotation.pk, user=user, expected_version=7)
    assert annotation_state_load(annotation).snapshot() == before


def test_replaying_the_log_from_empty_reproduces_the_stored_state(setup):
    annotation, user, m = setup
    a = apply(annotation, user, 0, op="assign", mention=m[0], cluster=None).created["cluster"]
    b = apply(annotation, user, 1, op="assign", mention=m[1], cluster=None).created["cluster"]
    apply(annotation, user, 2, op="set_parent", child=b, parent=a)
    apply(annotation, user, 3, op="merge", source=b, target=a)
    annotation_undo(annotation_id=annotation.pk, user=user, expected_version=4)
    apply(annotation, user, 5, op="rename", cluster=a, label="tagging")

    log = Operation.objects.filter(annotation=annotation).order_by("version")
    replayed = replay(annotation_initial_state(annotation), list(log))

    assert replayed.snapshot() == annotation_state_load(annotation).snapshot()
