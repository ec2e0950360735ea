import pytest

from annotation.domain.errors import InvalidOperation, LinkRuleError, NotAllowed, NotFound

from .factories import Session, topic

# In document 1, mentions 1, 2, 3, 4 start at tokens 0, 4, 8, 12; mention 5 is in document 2.


def link(session, type, anaphor, antecedent, op="add_link"):
    return session.do({"op": op, "type": type, "anaphor": anaphor, "antecedent": antecedent})


def refused_rule(state, type, anaphor, antecedent):
    with pytest.raises(LinkRuleError) as refused:
        link(Session(state), type, anaphor, antecedent)
    return refused.value.rule, refused.value.message


def test_add_link_adds_it():
    session = Session(topic(anaphora=True))
    link(session, "COREFERENCE", 2, 1)
    assert session.state.links == {("COREFERENCE", 2, 1)}


def test_links_need_the_anaphora_scheme():
    with pytest.raises(NotAllowed, match="no anaphora links"):
        link(Session(topic()), "COREFERENCE", 2, 1)


def test_an_unknown_link_type_is_an_invalid_operation():
    with pytest.raises(InvalidOperation, match="type: must be one of"):
        link(Session(topic(anaphora=True)), "SAME_AS", 2, 1)


def test_a_link_to_a_missing_mention_is_not_found():
    with pytest.raises(NotFound):
        link(Session(topic(anaphora=True)), "COREFERENCE", 2, 99)


def test_a_mention_cannot_be_its_own_antecedent():
    assert refused_rule(topic(anaphora=True), "COREFERENCE", 2, 2)[0] == "self_link"


def test_a_link_across_documents_is_refused():
    rule, message = refused_rule(topic(anaphora=True), "COREFERENCE", 5, 1)
    assert rule == "same_document"
    assert "same document" in message


def test_a_link_from_or_to_a_rejected_mention_is_refused():
    assert refused_rule(topic(anaphora=True, rejected=(1,)), "COREFERENCE", 2, 1)[0] == "rejected"


def test_an_antecedent_later_than_the_anaphor_is_refused():
    rule, message = refused_rule(topic(anaphora=True), "COREFERENCE", 1, 2)
    assert rule == "order"
    assert "antecedent must come earlier" in message


def test_an_antecedent_starting_at_the_same_token_is_refused():
    state = topic(anaphora=True)
    state.put_mention(state.mentions[1].__class__(50, 1, ((0, 0),), added=True))
    assert refused_rule(state, "COREFERENCE", 50, 1)[0] == "order"


def test_the_order_compares_the_first_token_of_the_first_span():
    state = topic(anaphora=True)
    state.put_mention(state.mentions[1].__class__(50, 1, ((1, 1), (30, 31)), added=True))
    session = Session(state)
    link(session, "COREFERENCE", 2, 50)  # 50 starts at token 1, before mention 2 at token 4
    assert ("COREFERENCE", 2, 50) in session.state.links


def test_a_duplicate_link_is_refused():
    state = topic(anaphora=True, links=[("WORK_UP", 2, 1)])
    assert refused_rule(state, "WORK_UP", 2, 1)[0] == "duplicate"


def test_the_same_pair_may_carry_two_different_types():
    session = Session(topic(anaphora=True, links=[("COREFERENCE", 2, 1)]))
    link(session, "TRANSFORMED", 2, 1)
    assert session.state.links == {("COREFERENCE", 2, 1), ("TRANSFORMED", 2, 1)}


def test_a_second_type_for_the_same_pair_warns_naming_the_existing_link():
    session = Session(topic(anaphora=True, links=[("COREFERENCE", 2, 1)]))
    result = link(session, "TRANSFORMED", 2, 1)
    assert result.warnings == [
        (
            '"m2" (document 1, word 5) was already linked to "m1" (document 1, word 1) as '
            "COREFERENCE; it is now linked as TRANSFORMED too. Remove one of the two if the pair "
            "has one relation."
        )
    ]


def test_a_link_of_a_new_pair_carries_no_warning():
    session = Session(topic(anaphora=True, links=[("COREFERENCE", 3, 1)]))
    assert link(session, "COREFERENCE", 2, 1).warnings == []


def test_the_reverse_pair_is_not_the_same_pair():
    session = Session(topic(anaphora=True, links=[("COREFERENCE", 3, 2)]))
    assert link(session, "COREFERENCE", 3, 1).warnings == []


def test_a_project_can_refuse_a_second_type_for_the_same_pair():
    state = topic(anaphora=True, refuse_duplicate_link_pairs=True, links=[("WORK_UP", 2, 1)])
    session = Session(state)
    before = state.snapshot()
    with pytest.raises(LinkRuleError) as refused:
        link(session, "CONTAINED", 2, 1)
    assert refused.value.rule == "duplicate_pair"
    assert refused.value.message.startswith(
        '"m2" (document 1, word 5) is already linked to "m1" (document 1, word 1) as WORK_UP'
    )
    assert session.state.snapshot() == before
    assert session.log == []


def test_refusing_duplicate_pairs_still_allows_other_pairs():
    session = Session(
        topic(anaphora=True, refuse_duplicate_link_pairs=True, links=[("WORK_UP", 2, 1)])
    )
    link(session, "WORK_UP", 3, 1)
    assert ("WORK_UP", 3, 1) in session.state.links


def test_refusals_name_mentions_by_text_and_place_not_by_id():
    rule, message = refused_rule(topic(anaphora=True), "COREFERENCE", 1, 2)
    assert rule == "order"
    assert message == (
        "The antecedent must come earlier in the text than the anaphor: the antecedent "
        '"m2" (document 1, word 5) does not come before the anaphor "m1" (document 1, word 1).'
    )
    assert "#" not in message
    assert "token" not in message


def test_a_link_across_documents_names_both_documents():
    message = refused_rule(topic(anaphora=True), "COREFERENCE", 5, 1)[1]
    assert '"m5" (document 2, word 1)' in message
    assert '"m1" (document 1, word 1)' in message


def test_a_rejected_mention_is_named_in_the_refusal():
    message = refused_rule(topic(anaphora=True, rejected=(1,)), "COREFERENCE", 2, 1)[1]
    assert message == '"m1" (document 1, word 1) is rejected and cannot be linked.'


def test_an_anaphor_takes_at_most_one_transformed_antecedent():
    state = topic(anaphora=True, links=[("TRANSFORMED", 3, 1)])
    rule, message = refused_rule(state, "TRANSFORMED", 3, 2)
    assert rule == "transformed_one_to_one"
    assert 'anaphor "m3" (document 1, word 9) already has the TRANSFORMED antecedent' in message
    assert 'antecedent "m1" (document 1, word 1)' in message


def test_an_antecedent_takes_at_most_one_transformed_anaphor():
    state = topic(anaphora=True, links=[("TRANSFORMED", 2, 1)])
    rule, message = refused_rule(state, "TRANSFORMED", 3, 1)
    assert rule == "transformed_one_to_one"
    assert 'antecedent "m1" (document 1, word 1) already has the TRANSFORMED anaphor' in message
    assert 'anaphor "m2" (document 1, word 5)' in message


def test_a_mention_may_be_a_transformed_anaphor_and_a_transformed_antecedent():
    session = Session(topic(anaphora=True, links=[("TRANSFORMED", 2, 1)]))
    link(session, "TRANSFORMED", 3, 2)
    assert ("TRANSFORMED", 3, 2) in session.state.links


@pytest.mark.parametrize("type", ["COREFERENCE", "REACTION_ASSOCIATED", "WORK_UP", "CONTAINED"])
def test_other_types_are_one_to_many_from_the_anaphor(type):
    session = Session(topic(anaphora=True))
    link(session, type, 4, 1)
    link(session, type, 4, 2)
    link(session, type, 3, 2)
    assert len(session.state.links) == 3


def test_remove_link_removes_it():
    session = Session(topic(anaphora=True, links=[("CONTAINED", 2, 1)]))
    link(session, "CONTAINED", 2, 1, op="remove_link")
    assert session.state.links == set()


def test_removing_a_missing_link_is_refused():
    missing = r'no CONTAINED link from "m2" \(document 1, word 5\) to "m1"'
    with pytest.raises(NotFound, match=missing):
        link(Session(topic(anaphora=True)), "CONTAINED", 2, 1, op="remove_link")


def test_a_refused_link_changes_nothing():
    session = Session(topic(anaphora=True, links=[("TRANSFORMED", 2, 1)]))
    before = session.state.snapshot()
    with pytest.raises(LinkRuleError):
        link(session, "TRANSFORMED", 3, 1)
    assert session.state.snapshot() == before
    assert session.log == []
