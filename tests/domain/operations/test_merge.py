import pytest

from annotation.domain.errors import CycleError, NoChange

from .factories import Session, topic


def merge(session, source, target):
    return session.do({"op": "merge", "source": source, "target": target})


def test_merge_moves_the_source_mentions_into_the_target_and_deletes_the_source():
    session = Session(topic({1: ("S", [1, 2]), 2: ("T", [3])}))
    merge(session, 1, 2)
    assert 1 not in session.state.clusters
    assert session.state.clusters[2].members == {1, 2, 3}


def test_merge_keeps_the_target_id_label_and_parent():
    session = Session(topic({1: ("S", [1]), 2: ("T", [2]), 3: ("P", [3])}, edges=[(3, 2)]))
    merge(session, 1, 2)
    assert (session.state.clusters[2].label, session.state.parents[2]) == ("T", {3})


def test_merge_gives_the_target_the_source_children():
    session = Session(topic({1: ("S", [1]), 2: ("T", [2]), 3: ("C", [3])}, edges=[(1, 3)]))
    merge(session, 1, 2)
    assert session.state.edges == {(2, 3)}


def test_merge_gives_a_parentless_target_the_source_parent():
    session = Session(topic({1: ("S", [1]), 2: ("T", [2]), 3: ("P", [3])}, edges=[(3, 1)]))
    merge(session, 1, 2)
    assert session.state.edges == {(3, 2)}


def test_merge_appends_the_source_note_after_a_blank_line():
    session = Session(topic({1: ("S", [1], "source note"), 2: ("T", [2], "target note")}))
    merge(session, 1, 2)
    assert session.state.clusters[2].note == "target note\n\nsource note"


def test_merge_with_an_empty_source_note_leaves_the_target_note_alone():
    session = Session(topic({1: ("S", [1]), 2: ("T", [2], "target note")}))
    result = merge(session, 1, 2)
    assert session.state.clusters[2].note == "target note"
    assert not any(effect["e"] == "note_set" for effect in result.effects)


def test_merge_into_a_target_without_note_takes_the_source_note():
    session = Session(topic({1: ("S", [1], "source note"), 2: ("T", [2])}))
    merge(session, 1, 2)
    assert session.state.clusters[2].note == "source note"


def test_the_edge_from_target_to_source_disappears():
    session = Session(topic({1: ("S", [1]), 2: ("T", [2]), 3: ("C", [3])}, edges=[(2, 1), (1, 3)]))
    merge(session, 1, 2)
    assert session.state.edges == {(2, 3)}


def test_merging_a_parent_into_its_child_puts_the_child_in_the_parents_place():
    state = topic(
        {1: ("G", [1]), 2: ("S", [2]), 3: ("T", [3]), 4: ("Sibling", [4])},
        edges=[(1, 2), (2, 3), (2, 4)],
    )
    session = Session(state)
    merge(session, 2, 3)
    assert session.state.edges == {(1, 3), (3, 4)}


def test_duplicate_edges_collapse_when_both_share_a_child():
    state = topic(
        {1: ("S", [1]), 2: ("T", [2]), 3: ("C", [3])}, edges=[(1, 3), (2, 3)], single_parent=False
    )
    session = Session(state)
    merge(session, 1, 2)
    assert session.state.edges == {(2, 3)}


def test_duplicate_edges_collapse_when_both_share_a_parent():
    session = Session(topic({1: ("S", [1]), 2: ("T", [2]), 3: ("P", [3])}, edges=[(3, 1), (3, 2)]))
    result = merge(session, 1, 2)
    assert session.state.edges == {(3, 2)}
    assert result.warnings == []


def test_merging_into_own_grandchild_is_refused_with_the_path_and_changes_nothing():
    state = topic({1: ("A", [1]), 2: ("X", [2]), 3: ("B", [3])}, edges=[(1, 2), (2, 3)])
    session = Session(state)
    before = session.state.snapshot()
    with pytest.raises(CycleError) as refused:
        merge(session, 1, 3)
    assert (
        "would close a cycle: 'A' (#1) -> 'X' (#2) -> 'B' (#3) -> 'A' (#1)" in refused.value.message
    )
    assert refused.value.path == [(1, "A"), (2, "X"), (3, "B"), (1, "A")]
    assert session.state.snapshot() == before


def test_merging_a_grandchild_into_its_grandparent_is_refused_too():
    state = topic({1: ("A", [1]), 2: ("X", [2]), 3: ("B", [3])}, edges=[(1, 2), (2, 3)])
    with pytest.raises(CycleError, match=r"'A' \(#1\) -> 'X' \(#2\) -> 'B' \(#3\) -> 'A' \(#1\)"):
        merge(Session(state), 3, 1)


def test_a_cycle_through_a_second_path_is_refused_even_when_a_direct_edge_exists():
    state = topic(
        {1: ("A", [1]), 2: ("X", [2]), 3: ("B", [3])},
        edges=[(1, 2), (2, 3), (1, 3)],
        single_parent=False,
    )
    with pytest.raises(CycleError):
        merge(Session(state), 1, 3)


def test_under_single_parent_the_targets_parent_wins_and_the_dropped_edge_is_reported():
    state = topic(
        {1: ("S", [1]), 2: ("T", [2]), 3: ("PS", [3]), 4: ("PT", [4])}, edges=[(3, 1), (4, 2)]
    )
    session = Session(state)
    result = merge(session, 1, 2)
    assert session.state.edges == {(4, 2)}
    assert result.warnings == [
        (
            "The edge 'PS' (#3) -> 'S' (#1) was dropped: under single parent, 'T' (#2) keeps its "
            "parent 'PT' (#4)."
        )
    ]


def test_under_multi_parent_the_target_gains_both_parents():
    state = topic(
        {1: ("S", [1]), 2: ("T", [2]), 3: ("PS", [3]), 4: ("PT", [4])},
        edges=[(3, 1), (4, 2)],
        single_parent=False,
    )
    session = Session(state)
    result = merge(session, 1, 2)
    assert session.state.parents[2] == {3, 4}
    assert result.warnings == []


def test_merging_a_cluster_into_itself_is_refused():
    with pytest.raises(NoChange, match="into itself"):
        merge(Session(topic({1: ("A", [1])})), 1, 1)


def test_undo_of_a_merge_restores_both_clusters_exactly():
    state = topic(
        {
            1: ("S", [1, 5], "s note"),
            2: ("T", [2], "t note"),
            3: ("PS", [3]),
            4: ("PT", [4]),
            5: ("C", [6]),
        },
        edges=[(3, 1), (4, 2), (1, 5)],
    )
    session = Session(state)
    before = session.state.snapshot()
    merge(session, 1, 2)
    session.undo()
    assert session.state.snapshot() == before
