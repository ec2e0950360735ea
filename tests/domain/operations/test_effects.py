"""What the shared effect cases (fixtures/golden/twins/effects.json, run by
tests/domain/test_golden_effects.py and by Vitest) cannot say: the planner's use of effects."""

from annotation.domain.effects import apply_effects
from annotation.domain.operations import plan
from tests.domain.twins import golden, state_from

from .factories import ids_from, topic


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
    cases = golden("effects")
    (every_kind,) = [c for c in cases["cases"] if c["name"].startswith("one of every kind")]
    state = state_from(cases["states"][every_kind["state"]])
    before = state.snapshot()
    copy = state.copy()
    apply_effects(copy, every_kind["effects"])
    assert state.snapshot() == before
    assert copy.snapshot() != before
