import pytest

from annotation.domain.errors import InvalidOperation, NoChange, NotFound

from .factories import Session, topic


def test_rename_sets_the_label():
    session = Session(topic({1: ("A", [1])}))
    session.do({"op": "rename", "cluster": 1, "label": "CRF tagger"})
    assert session.state.clusters[1].label == "CRF tagger"


def test_rename_trims_surrounding_whitespace():
    session = Session(topic({1: ("A", [1])}))
    session.do({"op": "rename", "cluster": 1, "label": "  CRF tagger \n"})
    assert session.state.clusters[1].label == "CRF tagger"


def test_rename_to_a_blank_label_is_refused():
    with pytest.raises(InvalidOperation, match="label: must not be empty"):
        Session(topic({1: ("A", [1])})).do({"op": "rename", "cluster": 1, "label": "  "})


def test_rename_to_the_same_label_is_refused():
    with pytest.raises(NoChange):
        Session(topic({1: ("A", [1])})).do({"op": "rename", "cluster": 1, "label": "A"})


def test_rename_of_a_missing_cluster_is_not_found():
    with pytest.raises(NotFound):
        Session(topic()).do({"op": "rename", "cluster": 1, "label": "B"})


def test_set_note_sets_the_note_and_undo_restores_the_old_one():
    session = Session(topic({1: ("A", [1], "old")}))
    session.do({"op": "set_note", "cluster": 1, "note": "not the tagger"})
    assert session.state.clusters[1].note == "not the tagger"
    session.undo()
    assert session.state.clusters[1].note == "old"


def test_set_note_may_clear_the_note():
    session = Session(topic({1: ("A", [1], "old")}))
    session.do({"op": "set_note", "cluster": 1, "note": ""})
    assert session.state.clusters[1].note == ""


def test_set_note_to_the_same_note_is_refused():
    with pytest.raises(NoChange):
        Session(topic({1: ("A", [1], "n")})).do({"op": "set_note", "cluster": 1, "note": "n"})
