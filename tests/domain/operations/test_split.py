import pytest

from annotation.domain.errors import NoChange

from .factories import Session, topic


def split(session, mentions):
    return session.do({"op": "split", "mentions": mentions})


def test_split_moves_the_mentions_into_one_new_cluster_without_edges():
    session = Session(topic({1: ("A", [1, 2, 3]), 2: ("P", [4])}, edges=[(2, 1)]))
    result = split(session, [2, 3])
    new = result.created["cluster"]
    assert session.state.clusters[new].members == {2, 3}
    assert session.state.parents[new] == session.state.children[new] == set()
    assert session.state.clusters[1].members == {1}


def test_split_labels_the_new_cluster_with_the_first_mention_listed():
    session = Session(topic({1: ("A", [1, 2, 3])}))
    result = split(session, [3, 2])
    assert session.state.clusters[result.created["cluster"]].label == "m3"


def test_split_takes_mentions_from_several_clusters():
    session = Session(topic({1: ("A", [1, 2]), 2: ("B", [3, 4])}))
    result = split(session, [2, 4])
    assert session.state.clusters[result.created["cluster"]].members == {2, 4}
    assert (session.state.clusters[1].members, session.state.clusters[2].members) == ({1}, {3})


def test_split_deletes_the_clusters_it_empties_and_reattaches_their_children():
    session = Session(
        topic(
            {1: ("P", [1]), 2: ("E", [2]), 3: ("C", [3]), 4: ("B", [4, 5])}, edges=[(1, 2), (2, 3)]
        )
    )
    split(session, [2, 4])
    assert 2 not in session.state.clusters
    assert session.state.edges == {(1, 3)}


def test_emptying_a_parent_and_its_child_at_once_reattaches_grandchildren_to_the_nearest_survivor():
    state = topic(
        {1: ("G", [1]), 2: ("E1", [2]), 3: ("E2", [3]), 4: ("C", [4]), 5: ("Other", [5, 6])},
        edges=[(1, 2), (2, 3), (3, 4)],
    )
    session = Session(state)
    split(session, [2, 3, 5])
    assert session.state.edges == {(1, 4)}


def test_split_groups_unassigned_mentions_into_a_new_cluster():
    session = Session(topic())
    result = split(session, [1, 2])
    assert session.state.clusters[result.created["cluster"]].members == {1, 2}


def test_repeated_mentions_in_a_split_count_once():
    session = Session(topic({1: ("A", [1, 2, 3])}))
    result = split(session, [2, 2])
    assert session.state.clusters[result.created["cluster"]].members == {2}


def test_splitting_off_every_mention_of_a_cluster_is_refused():
    with pytest.raises(NoChange, match=r"all the mentions of cluster 'A' \(#1\)"):
        split(Session(topic({1: ("A", [1, 2])})), [1, 2])


def test_undo_of_a_split_restores_the_emptied_clusters():
    state = topic(
        {1: ("P", [1]), 2: ("E", [2], "note"), 3: ("C", [3]), 4: ("B", [4, 5])},
        edges=[(1, 2), (2, 3)],
    )
    session = Session(state)
    before = session.state.snapshot()
    split(session, [2, 4])
    session.undo()
    assert session.state.snapshot() == before
