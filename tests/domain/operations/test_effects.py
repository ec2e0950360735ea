import json

import pytest

from annotation.domain import effects as fx
from annotation.domain.effects import apply_effects, invert_effects
from annotation.domain.errors import CorruptEffects
from annotation.domain.operations import plan
from annotation.domain.state import Link

from .factories import ids_from, topic

EVERY_KIND = [
    fx.cluster_created(100, "new", ""),
    fx.member_set(5, None, 100),
    fx.edge_added(1, 100),
    fx.label_set(100, "new", "renamed"),
    fx.note_set(100, "", "a note"),
    fx.link_added(Link("WORK_UP", 2, 1)),
    fx.mention_added(1000, 1, ((20, 21), (23, 23))),
    fx.spans_set(1000, ((20, 21), (23, 23)), ((20, 22),)),
    fx.rejected_set(3, False, True),
    fx.suggestion_decided(7, None, "accepted"),
]


def base():
    return topic({1: ("A", [1])}, anaphora=True)


def test_effects_survive_a_json_round_trip():
    state, via_json = base(), base()
    apply_effects(state, EVERY_KIND)
    apply_effects(via_json, json.loads(json.dumps(EVERY_KIND)))
    assert state.snapshot() == via_json.snapshot()


def test_the_inverse_undoes_every_kind_of_effect():
    state = base()
    before = state.snapshot()
    apply_effects(state, EVERY_KIND)
    apply_effects(state, invert_effects(EVERY_KIND))
    assert state.snapshot() == before


def test_inverting_twice_gives_the_effects_back():
    assert invert_effects(invert_effects(EVERY_KIND)) == EVERY_KIND


def test_the_snapshot_is_json():
    state = base()
    apply_effects(state, EVERY_KIND)
    assert json.loads(json.dumps(state.snapshot())) == state.snapshot()


def test_a_stale_old_value_is_refused():
    with pytest.raises(CorruptEffects, match="label differs"):
        apply_effects(base(), [fx.label_set(1, "not A", "B")])


def test_a_failing_effect_rolls_back_the_ones_before_it():
    state = base()
    before = state.snapshot()
    with pytest.raises(CorruptEffects):
        apply_effects(
            state,
            [fx.cluster_created(100, "new"), fx.member_set(2, None, 100), fx.edge_added(1, 1)],
        )
    assert state.snapshot() == before


def test_a_cluster_with_members_is_not_deleted():
    with pytest.raises(CorruptEffects, match="still has members"):
        apply_effects(base(), [fx.cluster_deleted(1, "A", "")])


def test_a_cluster_with_edges_is_not_deleted():
    state = topic({1: ("A", [1]), 2: ("B", [2])}, edges=[(1, 2)])
    with pytest.raises(CorruptEffects, match="still has edges"):
        apply_effects(state, [fx.member_set(1, 1, 2), fx.cluster_deleted(1, "A", "")])


def test_a_rejected_mention_cannot_join_a_cluster():
    with pytest.raises(CorruptEffects, match="rejected"):
        apply_effects(topic({1: ("A", [1])}, rejected=(2,)), [fx.member_set(2, None, 1)])


def test_a_mention_in_a_cluster_cannot_be_marked_rejected():
    with pytest.raises(CorruptEffects):
        apply_effects(base(), [fx.rejected_set(1, False, True)])


def test_an_unknown_effect_is_refused():
    with pytest.raises(CorruptEffects, match="unknown effect"):
        apply_effects(base(), [{"e": "teleport"}])


def test_a_malformed_effect_is_refused():
    with pytest.raises(CorruptEffects, match="malformed"):
        apply_effects(base(), [{"e": "edge_added", "parent": 1}])


def test_plan_leaves_the_state_untouched():
    state = topic({1: ("P", [1]), 2: ("E", [2]), 3: ("C", [3])}, edges=[(1, 2), (2, 3)])
    before = state.snapshot()
    plan(state, {"op": "assign", "mention": 2, "cluster": 1}, ids_from(100))
    assert state.snapshot() == before


def test_an_emptied_clusters_deletion_comes_after_its_moves_and_edge_changes():
    state = topic({1: ("P", [1]), 2: ("E", [2], "note"), 3: ("C", [3])}, edges=[(1, 2), (2, 3)])
    result = plan(state, {"op": "assign", "mention": 2, "cluster": 1}, ids_from(100))
    assert result.effects == [
        {"e": "member_set", "mention": 2, "old": 2, "new": 1},
        {"e": "edge_removed", "parent": 1, "child": 2},
        {"e": "edge_removed", "parent": 2, "child": 3},
        {"e": "edge_added", "parent": 1, "child": 3},
        {"e": "cluster_deleted", "cluster": 2, "label": "E", "note": "note"},
    ]


def test_copy_is_independent_of_the_original():
    state = base()
    copy = state.copy()
    apply_effects(copy, EVERY_KIND)
    assert state.snapshot() == base().snapshot()
