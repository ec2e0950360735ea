import pytest

from annotation.domain.errors import (
    DuplicateError,
    InvalidSpans,
    LinkRuleError,
    NoChange,
    NotAllowed,
    NotFound,
    RejectedMentionError,
)

from .factories import Session, topic

ALLOWED = {
    "allow_add_mentions": True,
    "allow_fix_spans": True,
    "allow_reject_mentions": True,
    "anaphora": True,
}


def add(session, spans, document=1):
    return session.do({"op": "add_mention", "document": document, "spans": spans})


def test_add_mention_creates_an_unassigned_added_mention_with_a_new_id():
    session = Session(topic(**ALLOWED))
    result = add(session, [[20, 22]])
    mention = session.state.mentions[result.created["mention"]]
    assert (mention.document, mention.spans, mention.added, mention.rejected) == (
        1,
        ((20, 22),),
        True,
        False,
    )
    assert mention.id not in session.state.mention_cluster


def test_add_mention_accepts_discontinuous_spans():
    session = Session(topic(**ALLOWED))
    result = add(session, [[20, 21], [25, 25]])
    assert session.state.mentions[result.created["mention"]].spans == ((20, 21), (25, 25))


def test_add_mention_is_refused_where_the_project_does_not_allow_it():
    with pytest.raises(NotAllowed, match="add mentions"):
        add(Session(topic()), [[20, 22]])


def test_add_mention_in_a_missing_document_is_not_found():
    with pytest.raises(NotFound, match="no document #9"):
        add(Session(topic(**ALLOWED)), [[0, 0]], document=9)


def test_a_span_past_the_end_of_the_document_is_refused():
    with pytest.raises(InvalidSpans, match="outside document 1, which has 40 tokens"):
        add(Session(topic(**ALLOWED)), [[38, 40]])


def test_a_negative_span_start_is_refused():
    with pytest.raises(InvalidSpans, match="outside"):
        add(Session(topic(**ALLOWED)), [[-1, 2]])


def test_a_span_that_ends_before_it_starts_is_refused():
    with pytest.raises(InvalidSpans, match=r"\[22, 20\] ends before it starts"):
        add(Session(topic(**ALLOWED)), [[22, 20]])


def test_unsorted_spans_are_refused():
    with pytest.raises(InvalidSpans, match="text order"):
        add(Session(topic(**ALLOWED)), [[25, 26], [20, 21]])


def test_overlapping_spans_are_refused():
    with pytest.raises(InvalidSpans, match="must not overlap"):
        add(Session(topic(**ALLOWED)), [[20, 23], [23, 25]])


def test_adjacent_spans_are_accepted():
    session = Session(topic(**ALLOWED))
    result = add(session, [[20, 21], [22, 23]])
    assert session.state.mentions[result.created["mention"]].spans == ((20, 21), (22, 23))


def test_a_mention_with_the_spans_of_an_active_mention_is_refused():
    same = r'"m2" \(document 1, word 5\) already has exactly these spans'
    with pytest.raises(DuplicateError, match=same):
        add(Session(topic(**ALLOWED)), [[4, 5]])


def test_a_mention_with_the_spans_of_a_rejected_mention_is_accepted():
    session = Session(topic(rejected=(2,), **ALLOWED))
    result = add(session, [[4, 5]])
    assert result.created["mention"] in session.state.mentions


def test_undo_of_add_mention_removes_it():
    session = Session(topic(**ALLOWED))
    result = add(session, [[20, 22]])
    session.undo()
    assert result.created["mention"] not in session.state.mentions


def test_fix_span_changes_the_spans():
    session = Session(topic(**ALLOWED))
    session.do({"op": "fix_span", "mention": 1, "spans": [[0, 2]]})
    assert session.state.mentions[1].spans == ((0, 2),)


def test_fix_span_is_refused_where_the_project_does_not_allow_it():
    with pytest.raises(NotAllowed, match="fix mention spans"):
        Session(topic()).do({"op": "fix_span", "mention": 1, "spans": [[0, 2]]})


def test_fix_span_to_the_same_spans_is_refused():
    with pytest.raises(NoChange):
        Session(topic(**ALLOWED)).do({"op": "fix_span", "mention": 1, "spans": [[0, 1]]})


def test_fix_span_onto_another_active_mention_is_refused():
    with pytest.raises(DuplicateError):
        Session(topic(**ALLOWED)).do({"op": "fix_span", "mention": 1, "spans": [[4, 5]]})


def test_fix_span_of_a_rejected_mention_is_refused():
    with pytest.raises(RejectedMentionError, match="rejected"):
        Session(topic(rejected=(1,), **ALLOWED)).do(
            {"op": "fix_span", "mention": 1, "spans": [[0, 2]]}
        )


def test_fix_span_that_puts_an_anaphor_before_its_antecedent_is_refused():
    session = Session(topic(links=[("COREFERENCE", 3, 2)], **ALLOWED))  # 3 at token 8, 2 at token 4
    with pytest.raises(LinkRuleError, match="antecedent earlier in the text") as refused:
        session.do({"op": "fix_span", "mention": 3, "spans": [[2, 3]]})
    assert refused.value.rule == "order"


def test_fix_span_that_puts_an_antecedent_after_its_anaphor_is_refused():
    session = Session(topic(links=[("COREFERENCE", 3, 2)], **ALLOWED))
    with pytest.raises(LinkRuleError, match=r'at or after its anaphor "m3" \(document 1, word 9\)'):
        session.do({"op": "fix_span", "mention": 2, "spans": [[8, 8]]})


def test_fix_span_that_keeps_the_link_order_is_accepted():
    session = Session(topic(links=[("COREFERENCE", 3, 2)], **ALLOWED))
    session.do({"op": "fix_span", "mention": 2, "spans": [[5, 6]]})
    assert session.state.mentions[2].spans == ((5, 6),)


def test_reject_mention_marks_it_rejected_and_takes_it_out_of_its_cluster():
    session = Session(topic({1: ("A", [1, 2])}, **ALLOWED))
    session.do({"op": "reject_mention", "mention": 1})
    assert session.state.mentions[1].rejected is True
    assert 1 not in session.state.mention_cluster
    assert session.state.clusters[1].members == {2}


def test_reject_mention_deletes_the_cluster_it_empties_and_moves_its_children_up():
    session = Session(
        topic({1: ("P", [1]), 2: ("E", [2]), 3: ("C", [3])}, edges=[(1, 2), (2, 3)], **ALLOWED)
    )
    session.do({"op": "reject_mention", "mention": 2})
    assert 2 not in session.state.clusters
    assert session.state.edges == {(1, 3)}


def test_reject_mention_removes_its_links():
    session = Session(
        topic(links=[("COREFERENCE", 2, 1), ("WORK_UP", 3, 2), ("CONTAINED", 4, 3)], **ALLOWED)
    )
    session.do({"op": "reject_mention", "mention": 2})
    assert session.state.links == {("CONTAINED", 4, 3)}


def test_reject_mention_is_refused_where_the_project_does_not_allow_it():
    with pytest.raises(NotAllowed, match="reject mentions"):
        Session(topic()).do({"op": "reject_mention", "mention": 1})


def test_rejecting_a_rejected_mention_is_refused():
    with pytest.raises(NoChange, match="already rejected"):
        Session(topic(rejected=(1,), **ALLOWED)).do({"op": "reject_mention", "mention": 1})


def test_undo_of_reject_mention_restores_cluster_links_and_flag():
    state = topic(
        {1: ("P", [1]), 2: ("E", [2], "n"), 3: ("C", [3])},
        edges=[(1, 2), (2, 3)],
        links=[("COREFERENCE", 2, 1)],
        **ALLOWED,
    )
    session = Session(state)
    before = session.state.snapshot()
    session.do({"op": "reject_mention", "mention": 2})
    session.undo()
    assert session.state.snapshot() == before
