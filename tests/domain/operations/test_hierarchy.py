import pytest

from annotation.domain.errors import (
    CycleError,
    DuplicateError,
    NoChange,
    NotAllowed,
    NotFound,
    SelfLoopError,
    SingleParentError,
)

from .factories import Session, topic

CHAIN = {1: ("A", [1]), 2: ("X", [2]), 3: ("B", [3]), 4: ("D", [4])}


def test_set_parent_replaces_the_childs_parent():
    session = Session(topic(CHAIN, edges=[(1, 2)]))
    session.do({"op": "set_parent", "child": 2, "parent": 3})
    assert session.state.edges == {(3, 2)}


def test_set_parent_replaces_every_parent_under_multi_parent():
    session = Session(topic(CHAIN, edges=[(1, 3), (2, 3)], single_parent=False))
    session.do({"op": "set_parent", "child": 3, "parent": 4})
    assert session.state.parents[3] == {4}


def test_set_parent_keeps_an_existing_parent_and_drops_the_others():
    session = Session(topic(CHAIN, edges=[(1, 3), (2, 3)], single_parent=False))
    result = session.do({"op": "set_parent", "child": 3, "parent": 1})
    assert session.state.parents[3] == {1}
    assert result.effects == [{"e": "edge_removed", "parent": 2, "child": 3}]


def test_set_parent_to_null_moves_the_cluster_to_the_top_level():
    session = Session(topic(CHAIN, edges=[(1, 2)]))
    session.do({"op": "set_parent", "child": 2, "parent": None})
    assert session.state.edges == set()


def test_set_parent_to_the_current_parent_is_refused():
    with pytest.raises(NoChange, match="already the parent"):
        Session(topic(CHAIN, edges=[(1, 2)])).do({"op": "set_parent", "child": 2, "parent": 1})


def test_moving_a_root_to_the_top_level_is_refused():
    with pytest.raises(NoChange, match="already at the top level"):
        Session(topic(CHAIN)).do({"op": "set_parent", "child": 2, "parent": None})


def test_set_parent_refuses_a_self_loop():
    with pytest.raises(SelfLoopError, match=r"its own parent: 'A' \(#1\)"):
        Session(topic(CHAIN)).do({"op": "set_parent", "child": 1, "parent": 1})


def test_set_parent_under_a_descendant_is_refused_with_the_path():
    session = Session(topic(CHAIN, edges=[(1, 2), (2, 3)]))
    with pytest.raises(CycleError) as refused:
        session.do({"op": "set_parent", "child": 1, "parent": 3})
    assert refused.value.message == (
        "Putting 'A' (#1) under 'B' (#3) would close a cycle: "
        "'A' (#1) -> 'X' (#2) -> 'B' (#3) -> 'A' (#1)."
    )


def test_add_edge_adds_a_parent():
    session = Session(topic(CHAIN))
    session.do({"op": "add_edge", "parent": 1, "child": 2})
    assert session.state.edges == {(1, 2)}


def test_add_edge_refuses_a_self_loop():
    with pytest.raises(SelfLoopError):
        Session(topic(CHAIN)).do({"op": "add_edge", "parent": 2, "child": 2})


def test_add_edge_refuses_a_cycle_naming_the_path():
    session = Session(topic(CHAIN, edges=[(1, 2), (2, 3)]))
    with pytest.raises(CycleError, match=r"'A' \(#1\) -> 'X' \(#2\) -> 'B' \(#3\) -> 'A' \(#1\)"):
        session.do({"op": "add_edge", "parent": 3, "child": 1})


def test_add_edge_refuses_a_two_cluster_cycle():
    session = Session(topic(CHAIN, edges=[(1, 2)], single_parent=False))
    with pytest.raises(CycleError, match=r"cycle: 'A' \(#1\) -> 'X' \(#2\) -> 'A' \(#1\)"):
        session.do({"op": "add_edge", "parent": 2, "child": 1})


def test_add_edge_refuses_an_existing_edge():
    with pytest.raises(DuplicateError, match="already a parent"):
        Session(topic(CHAIN, edges=[(1, 2)])).do({"op": "add_edge", "parent": 1, "child": 2})


def test_under_single_parent_add_edge_to_a_child_with_a_parent_suggests_set_parent():
    session = Session(topic(CHAIN, edges=[(1, 2)]))
    with pytest.raises(
        SingleParentError, match=r"'X' \(#2\) already has the parent 'A' \(#1\).*use set_parent"
    ):
        session.do({"op": "add_edge", "parent": 3, "child": 2})


def test_under_multi_parent_add_edge_gives_a_second_parent():
    session = Session(topic(CHAIN, edges=[(1, 2)], single_parent=False))
    session.do({"op": "add_edge", "parent": 3, "child": 2})
    assert session.state.parents[2] == {1, 3}


def test_remove_edge_removes_it():
    session = Session(topic(CHAIN, edges=[(1, 2)]))
    session.do({"op": "remove_edge", "parent": 1, "child": 2})
    assert session.state.edges == set()


def test_removing_a_missing_edge_is_refused():
    with pytest.raises(NotFound, match=r"'A' \(#1\) is not a parent of 'X' \(#2\)"):
        Session(topic(CHAIN)).do({"op": "remove_edge", "parent": 1, "child": 2})


def test_edges_cannot_be_added_without_the_hierarchy_scheme():
    with pytest.raises(NotAllowed, match="no cluster hierarchy"):
        Session(topic(CHAIN, hierarchy=False)).do({"op": "add_edge", "parent": 1, "child": 2})


def test_set_parent_needs_the_hierarchy_scheme():
    with pytest.raises(NotAllowed):
        Session(topic(CHAIN, hierarchy=False)).do({"op": "set_parent", "child": 2, "parent": 1})


def test_edges_can_still_be_removed_without_the_hierarchy_scheme():
    session = Session(topic(CHAIN, edges=[(1, 2)], hierarchy=False))
    session.do({"op": "remove_edge", "parent": 1, "child": 2})
    assert session.state.edges == set()


def test_a_cycle_check_on_a_deep_chain_does_not_hit_the_recursion_limit():
    clusters = {id: (f"c{id}", [id]) for id in range(1, 13)}
    session = Session(topic(clusters, edges=[(id, id + 1) for id in range(1, 12)]))
    with pytest.raises(CycleError) as refused:
        session.do({"op": "add_edge", "parent": 12, "child": 1})
    assert [id for id, _ in refused.value.path] == list(range(1, 13)) + [1]
