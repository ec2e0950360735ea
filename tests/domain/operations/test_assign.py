import pytest

from annotation.domain.errors import DuplicateError, NoChange, NotFound
from annotation.domain.state import Mention

from .factories import Session, topic


def test_assigning_an_unassigned_mention_to_a_new_cluster_labels_it_with_the_mention_text():
    session = Session(topic())
    result = session.do({"op": "assign", "mention": 1, "cluster": None})
    cluster = session.state.clusters[result.created["cluster"]]
    assert (cluster.label, cluster.note, cluster.members) == ("m1", "", {1})


def test_a_new_cluster_is_labelled_by_mention_id_when_no_text_provider_is_given():
    state = topic()
    state.mention_text = None
    session = Session(state)
    result = session.do({"op": "assign", "mention": 1, "cluster": None})
    assert session.state.clusters[result.created["cluster"]].label == "mention #1"


def test_assigning_to_an_existing_cluster_adds_the_mention():
    session = Session(topic({1: ("A", [1])}))
    session.do({"op": "assign", "mention": 2, "cluster": 1})
    assert session.state.clusters[1].members == {1, 2}
    assert session.state.mention_cluster[2] == 1


def test_moving_a_mention_out_of_a_cluster_with_others_keeps_that_cluster():
    session = Session(topic({1: ("A", [1, 2]), 2: ("B", [3])}))
    session.do({"op": "assign", "mention": 2, "cluster": 2})
    assert session.state.clusters[1].members == {1}


def test_moving_the_last_mention_deletes_the_emptied_cluster():
    session = Session(topic({1: ("A", [1]), 2: ("B", [2])}))
    session.do({"op": "assign", "mention": 1, "cluster": 2})
    assert 1 not in session.state.clusters


def test_the_emptied_clusters_children_move_up_to_its_parent():
    state = topic(
        {1: ("P", [1]), 2: ("E", [2]), 3: ("C1", [3]), 4: ("C2", [4])},
        edges=[(1, 2), (2, 3), (2, 4)],
    )
    session = Session(state)
    session.do({"op": "assign", "mention": 2, "cluster": 1})
    assert session.state.edges == {(1, 3), (1, 4)}


def test_the_emptied_clusters_children_become_roots_when_it_had_no_parent():
    session = Session(topic({1: ("E", [1]), 2: ("C", [2]), 3: ("Other", [3])}, edges=[(1, 2)]))
    session.do({"op": "assign", "mention": 1, "cluster": 3})
    assert session.state.edges == set()
    assert session.state.parents[2] == set()


def test_under_multi_parent_the_emptied_clusters_children_join_all_its_parents():
    state = topic(
        {1: ("P1", [1]), 2: ("P2", [2]), 3: ("E", [3]), 4: ("C", [4])},
        edges=[(1, 3), (2, 3), (3, 4)],
        single_parent=False,
    )
    session = Session(state)
    session.do({"op": "assign", "mention": 3, "cluster": 1})
    assert session.state.parents[4] == {1, 2}


def test_undo_of_an_emptying_move_restores_id_label_note_and_edges_exactly():
    state = topic(
        {1: ("P", [1]), 2: ("E", [2], "keep apart from X"), 3: ("C", [3]), 4: ("Other", [4])},
        edges=[(1, 2), (2, 3)],
    )
    session = Session(state)
    before = session.state.snapshot()
    session.do({"op": "assign", "mention": 2, "cluster": 4})
    session.undo()
    assert session.state.snapshot() == before
    restored = session.state.clusters[2]
    assert (restored.label, restored.note, session.state.parents[2], session.state.children[2]) == (
        "E",
        "keep apart from X",
        {1},
        {3},
    )


def test_the_warning_names_the_removed_cluster_and_where_its_children_went():
    session = Session(topic({1: ("P", [1]), 2: ("E", [2]), 3: ("C", [3])}, edges=[(1, 2), (2, 3)]))
    result = session.do({"op": "assign", "mention": 2, "cluster": 1})
    assert result.warnings == [
        (
            "Cluster 'E' (#2) was left empty and removed; its subclusters 'C' (#3) moved up to "
            "'P' (#1)."
        )
    ]


def test_assigning_a_mention_to_its_own_cluster_is_refused():
    state = topic({1: ("A", [1, 2])})
    with pytest.raises(NoChange, match=r"already in cluster 'A' \(#1\)"):
        Session(state).do({"op": "assign", "mention": 1, "cluster": 1})


def test_a_mention_alone_in_its_cluster_is_not_moved_to_a_new_cluster():
    with pytest.raises(NoChange, match="already alone"):
        Session(topic({1: ("A", [1])})).do({"op": "assign", "mention": 1, "cluster": None})


def test_a_mention_sharing_its_cluster_may_start_a_new_one():
    session = Session(topic({1: ("A", [1, 2])}))
    result = session.do({"op": "assign", "mention": 2, "cluster": None})
    assert session.state.clusters[result.created["cluster"]].members == {2}


def test_assigning_a_rejected_mention_reopens_it():
    session = Session(topic({1: ("A", [1])}, rejected=(2,)))
    session.do({"op": "assign", "mention": 2, "cluster": 1})
    assert session.state.mentions[2].rejected is False
    assert session.state.mention_cluster[2] == 1


def test_reopening_a_rejected_mention_that_duplicates_an_active_one_is_refused():
    state = topic(rejected=(2,))
    state.put_mention(Mention(50, 1, ((4, 5),), added=True))  # same spans as mention 2
    with pytest.raises(DuplicateError, match="same spans"):
        Session(state).do({"op": "assign", "mention": 2, "cluster": None})


def test_assigning_a_missing_mention_is_not_found():
    with pytest.raises(NotFound, match="no mention #99"):
        Session(topic()).do({"op": "assign", "mention": 99, "cluster": None})


def test_assigning_to_a_missing_cluster_is_not_found():
    with pytest.raises(NotFound, match="no cluster #7"):
        Session(topic()).do({"op": "assign", "mention": 1, "cluster": 7})


def test_a_refused_assignment_draws_no_new_id():
    drawn = []
    session = Session(topic({1: ("A", [1])}))
    session.new_id = lambda kind: drawn.append(kind) or 100
    with pytest.raises(NoChange):
        session.do({"op": "assign", "mention": 1, "cluster": None})
    assert drawn == []
