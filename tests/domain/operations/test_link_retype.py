"""Retyping links in place (`retype_links`): one link or a chosen set, one operation."""

import pytest

from annotation.domain.errors import InvalidOperation, LinkRuleError, NotAllowed, NotFound

from .factories import Session, topic

# In document 1, mentions 1, 2, 3, 4 start at tokens 0, 4, 8, 12; mention 5 is in document 2.


def retype(session, links, type):
    return session.do(
        {
            "op": "retype_links",
            "type": type,
            "links": [{"type": t, "anaphor": a, "antecedent": b} for t, a, b in links],
        }
    )


def refused(session, links, type, error=LinkRuleError):
    before = session.state.snapshot()
    with pytest.raises(error) as raised:
        retype(session, links, type)
    assert session.state.snapshot() == before
    assert session.log == []
    return raised.value


def test_a_link_changes_type_in_place_and_one_undo_restores_it():
    session = Session(topic(anaphora=True, links=[("COREFERENCE", 2, 1)]))
    result = retype(session, [("COREFERENCE", 2, 1)], "WORK_UP")
    assert session.state.links == {("WORK_UP", 2, 1)}
    assert result.warnings == []
    assert [e["e"] for e in result.effects] == ["link_removed", "link_added"]
    session.undo()
    assert session.state.links == {("COREFERENCE", 2, 1)}
    session.redo()
    assert session.state.links == {("WORK_UP", 2, 1)}


def test_a_chosen_set_takes_one_type_as_one_operation():
    links = [("COREFERENCE", 2, 1), ("CONTAINED", 3, 1), ("WORK_UP", 4, 2)]
    session = Session(topic(anaphora=True, links=links))
    retype(session, links, "REACTION_ASSOCIATED")
    assert session.state.links == {
        ("REACTION_ASSOCIATED", 2, 1),
        ("REACTION_ASSOCIATED", 3, 1),
        ("REACTION_ASSOCIATED", 4, 2),
    }
    assert len(session.log) == 1
    session.undo()
    assert session.state.links == set(links)


def test_links_of_the_type_already_are_left_as_they_are():
    links = [("WORK_UP", 2, 1), ("CONTAINED", 3, 1)]
    session = Session(topic(anaphora=True, links=links))
    result = retype(session, links, "WORK_UP")
    assert session.state.links == {("WORK_UP", 2, 1), ("WORK_UP", 3, 1)}
    assert len(result.effects) == 2


def test_nothing_to_change_is_refused_naming_the_link():
    session = Session(topic(anaphora=True, links=[("WORK_UP", 2, 1)]))
    error = refused(session, [("WORK_UP", 2, 1)], "WORK_UP")
    assert error.rule == "same_type"
    assert error.message == (
        'The link "m2" (document 1, word 5) → "m1" (document 1, word 1) is already WORK_UP.'
    )


def test_a_retype_onto_an_existing_link_is_refused_naming_the_mentions():
    session = Session(topic(anaphora=True, links=[("COREFERENCE", 2, 1), ("WORK_UP", 2, 1)]))
    error = refused(session, [("COREFERENCE", 2, 1)], "WORK_UP")
    assert error.rule == "duplicate"
    assert error.message == (
        'There is already a WORK_UP link from "m2" (document 1, word 5) to '
        '"m1" (document 1, word 1).'
    )


def test_two_types_of_one_pair_retyped_to_one_type_are_refused():
    links = [("COREFERENCE", 2, 1), ("WORK_UP", 2, 1)]
    session = Session(topic(anaphora=True, links=links))
    assert refused(session, links, "CONTAINED").rule == "duplicate"


def test_both_types_of_one_pair_swap_when_retyped_together():
    # Neither new link exists once both old ones are gone: the state as it will be is checked.
    session = Session(topic(anaphora=True, links=[("COREFERENCE", 2, 1), ("WORK_UP", 3, 1)]))
    retype(session, [("COREFERENCE", 2, 1)], "TRANSFORMED")
    retype(session, [("TRANSFORMED", 2, 1)], "COREFERENCE")
    assert session.state.links == {("COREFERENCE", 2, 1), ("WORK_UP", 3, 1)}


def test_transformed_stays_one_to_one():
    session = Session(topic(anaphora=True, links=[("TRANSFORMED", 2, 1), ("COREFERENCE", 3, 1)]))
    error = refused(session, [("COREFERENCE", 3, 1)], "TRANSFORMED")
    assert error.rule == "transformed_one_to_one"
    assert "already has the TRANSFORMED anaphor" in error.message
    # Two links of one set cannot both take the one TRANSFORMED antecedent either.
    session = Session(topic(anaphora=True, links=[("COREFERENCE", 2, 1), ("COREFERENCE", 3, 1)]))
    both = [("COREFERENCE", 2, 1), ("COREFERENCE", 3, 1)]
    assert refused(session, both, "TRANSFORMED").rule == "transformed_one_to_one"


def test_the_transformed_link_retyped_away_frees_its_ends():
    session = Session(topic(anaphora=True, links=[("TRANSFORMED", 2, 1), ("COREFERENCE", 3, 1)]))
    retype(session, [("TRANSFORMED", 2, 1)], "COREFERENCE")
    retype(session, [("COREFERENCE", 3, 1)], "TRANSFORMED")
    assert session.state.links == {("COREFERENCE", 2, 1), ("TRANSFORMED", 3, 1)}


def test_a_pair_keeping_another_type_warns_or_is_refused_by_the_project_setting():
    links = [("COREFERENCE", 2, 1), ("WORK_UP", 2, 1)]
    result = retype(Session(topic(anaphora=True, links=links)), [links[1]], "CONTAINED")
    assert len(result.warnings) == 1
    assert "as COREFERENCE" in result.warnings[0]
    strict = Session(topic(anaphora=True, refuse_duplicate_link_pairs=True, links=[links[0]]))
    # A single link of its pair retypes freely under the setting: nothing else holds the pair.
    retype(strict, [links[0]], "CONTAINED")
    assert strict.state.links == {("CONTAINED", 2, 1)}


def test_a_missing_link_is_refused_by_its_text():
    session = Session(topic(anaphora=True, links=[("WORK_UP", 2, 1)]))
    error = refused(session, [("WORK_UP", 2, 1), ("CONTAINED", 3, 1)], "COREFERENCE", NotFound)
    assert 'no CONTAINED link from "m3"' in str(error)


def test_bad_payloads_are_invalid_operations():
    session = Session(topic(anaphora=True, links=[("WORK_UP", 2, 1)]))
    with pytest.raises(InvalidOperation, match="links: must be a non-empty list"):
        session.do({"op": "retype_links", "type": "WORK_UP", "links": []})
    with pytest.raises(InvalidOperation, match=r"links\[0\]\.anaphor: is required"):
        session.do({"op": "retype_links", "type": "WORK_UP", "links": [{"type": "WORK_UP"}]})
    with pytest.raises(InvalidOperation, match="type: must be one of"):
        retype(session, [("WORK_UP", 2, 1)], "SAME_AS")


def test_retyping_needs_the_anaphora_scheme():
    with pytest.raises(NotAllowed, match="no anaphora links"):
        retype(Session(topic()), [("WORK_UP", 2, 1)], "CONTAINED")
