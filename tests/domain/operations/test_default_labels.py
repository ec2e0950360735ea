"""A cluster's default label follows its members (after a few moves in the
adjudication workspace the bank's labels named mentions the clusters no longer held)."""

from .factories import Session, topic


def test_moving_out_the_mention_a_cluster_is_named_after_renames_it_after_the_next_one():
    session = Session(topic({1: ("m1", [1, 2, 3]), 2: ("m5", [5])}))

    session.do({"op": "assign", "mention": 1, "cluster": 2})

    assert (session.state.clusters[1].label, session.state.clusters[1].members) == ("m2", {2, 3})
    assert session.state.clusters[2].label == "m5"


def test_one_undo_puts_back_both_the_move_and_the_label():
    session = Session(topic({1: ("m1", [1, 2]), 2: ("m5", [5])}))
    session.do({"op": "assign", "mention": 1, "cluster": None})

    session.undo()

    assert (session.state.clusters[1].label, session.state.clusters[1].members) == ("m1", {1, 2})


def test_a_typed_label_stays_when_its_first_mention_leaves():
    session = Session(topic({1: ("Sequence labeling", [1, 2]), 2: ("m5", [5])}))

    session.do({"op": "split", "mentions": [1]})

    assert session.state.clusters[1].label == "Sequence labeling"
