from annotation.domain.invariants import invariant_violations
from annotation.domain.state import Cluster

from .factories import topic


def test_a_sound_state_has_no_violations():
    state = topic({1: ("A", [1]), 2: ("B", [2])}, edges=[(1, 2)], links=[("COREFERENCE", 2, 1)])
    assert invariant_violations(state) == []


def test_a_cycle_is_reported():
    state = topic({1: ("A", [1]), 2: ("B", [2])}, edges=[(1, 2), (2, 1)], single_parent=False)
    assert "the hierarchy has a cycle" in invariant_violations(state)


def test_two_parents_under_single_parent_are_reported():
    state = topic({1: ("A", [1]), 2: ("B", [2]), 3: ("C", [3])}, edges=[(1, 3), (2, 3)])
    assert "cluster #3 has several parents" in invariant_violations(state)


def test_an_empty_cluster_is_reported():
    state = topic({1: ("A", [])})
    assert "cluster #1 is empty" in invariant_violations(state)


def test_a_rejected_mention_in_a_cluster_is_reported():
    state = topic({1: ("A", [1])}, rejected=(1,))
    assert "rejected mention #1 is in cluster #1" in invariant_violations(state)


def test_a_link_pointing_forward_in_the_text_is_reported():
    state = topic(links=[("COREFERENCE", 1, 2)])
    assert "link COREFERENCE #1 -> #2: antecedent not earlier than anaphor" in invariant_violations(
        state
    )


def test_a_stale_index_is_reported():
    state = topic({1: ("A", [1])})
    state.clusters[2] = Cluster(2, "B", "", {2})  # bypasses the mutators
    assert (
        "the mention -> cluster index disagrees with the clusters' members"
        in invariant_violations(state)
    )
