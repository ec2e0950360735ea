"""Notes and project-defined attributes on links and clusters: set, refused, undone, and kept
through the operations that remove a link or delete a cluster."""

import pytest

from annotation.domain.errors import InvalidOperation, NoChange, NotFound
from annotation.domain.state import Link

from .factories import Session, topic

CERTAINTY = (("certainty", ("high", "low")), ("source", ("text", "inferred")))
LINK = {"type": "COREFERENCE", "anaphor": 2, "antecedent": 1}
KEY = Link("COREFERENCE", 2, 1)


def linked(**settings):
    return Session(
        topic(
            {1: ("A", [1, 2]), 2: ("B", [3])},
            links=[("COREFERENCE", 2, 1)],
            anaphora=True,
            allow_reject_mentions=True,
            attributes=CERTAINTY,
            **settings,
        )
    )


def test_a_link_note_is_set_trimmed_and_undone():
    session = linked()
    session.do({"op": "set_link_note", **LINK, "note": "  the same solid \n"})
    assert session.state.link_notes == {KEY: "the same solid"}
    session.undo()
    assert session.state.link_notes == {}


def test_a_note_on_a_missing_link_names_its_mentions():
    with pytest.raises(NotFound, match='There is no WORK_UP link from "m2"'):
        linked().do({"op": "set_link_note", **LINK, "type": "WORK_UP", "note": "x"})


def test_the_same_note_again_changes_nothing():
    session = linked()
    session.do({"op": "set_link_note", **LINK, "note": "n"})
    with pytest.raises(NoChange, match="already has this note"):
        session.do({"op": "set_link_note", **LINK, "note": "n"})


def test_a_link_attribute_takes_an_allowed_value_and_null_clears_it():
    session = linked()
    session.do({"op": "set_link_attribute", **LINK, "name": "certainty", "value": "low"})
    session.do({"op": "set_link_attribute", **LINK, "name": "source", "value": "text"})
    assert session.state.link_attributes == {KEY: {"certainty": "low", "source": "text"}}
    session.do({"op": "set_link_attribute", **LINK, "name": "certainty", "value": None})
    assert session.state.link_attributes == {KEY: {"source": "text"}}
    session.undo()
    assert session.state.link_attributes[KEY]["certainty"] == "low"


def test_an_unknown_value_is_refused_naming_the_allowed_ones():
    with pytest.raises(InvalidOperation, match="certainty must be one of high, low, not 'sure'"):
        linked().do({"op": "set_link_attribute", **LINK, "name": "certainty", "value": "sure"})


def test_an_unknown_attribute_is_refused_naming_the_project_s_attributes():
    with pytest.raises(InvalidOperation, match="no attribute 'mood': its attributes are certainty"):
        linked().do({"op": "set_link_attribute", **LINK, "name": "mood", "value": "x"})


def test_a_project_without_attributes_says_so():
    session = Session(topic({1: ("A", [1])}))
    with pytest.raises(InvalidOperation, match="it defines none"):
        session.do({"op": "set_cluster_attribute", "cluster": 1, "name": "x", "value": "y"})


def test_removing_a_link_clears_its_note_and_attributes_first_and_undo_brings_them_back():
    session = linked()
    session.do({"op": "set_link_note", **LINK, "note": "why"})
    session.do({"op": "set_link_attribute", **LINK, "name": "certainty", "value": "high"})
    result = session.do({"op": "remove_link", **LINK})
    assert [effect["e"] for effect in result.effects] == [
        "link_note_set",
        "link_attribute_set",
        "link_removed",
    ]
    assert session.state.links == set()
    assert session.state.link_notes == {}
    session.undo()
    assert session.state.link_notes == {KEY: "why"}
    assert session.state.link_attributes == {KEY: {"certainty": "high"}}


def test_rejecting_a_mention_keeps_its_link_s_note_for_undo():
    session = linked()
    session.do({"op": "set_link_note", **LINK, "note": "why"})
    session.do({"op": "reject_mention", "mention": 2})
    assert session.state.link_notes == {}
    session.undo()
    assert session.state.link_notes == {KEY: "why"}


def test_a_cluster_attribute_is_set_and_refused_in_the_annotator_s_words():
    session = linked()
    session.do({"op": "set_cluster_attribute", "cluster": 1, "name": "certainty", "value": "high"})
    assert session.state.clusters[1].attributes == {"certainty": "high"}
    with pytest.raises(NoChange, match="'A' \\(#1\\) already has certainty high"):
        session.do(
            {"op": "set_cluster_attribute", "cluster": 1, "name": "certainty", "value": "high"}
        )


def test_a_merge_gives_the_target_the_source_s_attributes_it_lacks():
    session = linked()
    session.do({"op": "set_cluster_attribute", "cluster": 2, "name": "certainty", "value": "low"})
    session.do({"op": "set_cluster_attribute", "cluster": 2, "name": "source", "value": "text"})
    session.do({"op": "set_cluster_attribute", "cluster": 1, "name": "certainty", "value": "high"})
    result = session.do({"op": "merge", "source": 2, "target": 1})
    assert session.state.clusters[1].attributes == {"certainty": "high", "source": "text"}
    assert any("keeps its certainty 'high'" in warning for warning in result.warnings)
    session.undo()
    assert session.state.clusters[2].attributes == {"certainty": "low", "source": "text"}
    assert session.state.clusters[1].attributes == {"certainty": "high"}


def test_a_cluster_emptied_by_a_move_loses_its_attributes_until_undo():
    session = linked()
    session.do({"op": "set_cluster_attribute", "cluster": 2, "name": "certainty", "value": "low"})
    session.do({"op": "assign", "mention": 3, "cluster": 1})
    assert 2 not in session.state.clusters
    session.undo()
    assert session.state.clusters[2].attributes == {"certainty": "low"}


def test_retyping_a_link_carries_its_note_and_attributes_and_undo_puts_them_back():
    session = linked()
    session.do({"op": "set_link_note", **LINK, "note": "why"})
    session.do({"op": "set_link_attribute", **LINK, "name": "certainty", "value": "low"})
    session.do({"op": "retype_links", "links": [LINK], "type": "WORK_UP"})
    new = Link("WORK_UP", 2, 1)
    assert session.state.link_notes == {new: "why"}
    assert session.state.link_attributes == {new: {"certainty": "low"}}
    session.undo()
    assert session.state.link_notes == {KEY: "why"}
    assert session.state.link_attributes == {KEY: {"certainty": "low"}}
