import pytest

from annotation.domain.errors import AlreadyDecided, InvalidOperation, NotFound

from .factories import Session, topic

MERGE = {"op": "merge", "source": 1, "target": 2}


def accept(session, suggestion, operation=MERGE):
    return session.do({"op": "accept_suggestion", "suggestion": suggestion, "operation": operation})


def test_accepting_a_suggestion_applies_its_operation_and_records_the_decision():
    session = Session(topic({1: ("A", [1]), 2: ("B", [2])}))
    result = accept(session, 7)
    assert session.state.clusters[2].members == {1, 2}
    assert session.state.decisions == {7: "accepted"}
    assert result.effects[-1] == {
        "e": "suggestion_decided",
        "suggestion": 7,
        "old": None,
        "new": "accepted",
    }


def test_an_accepted_suggestion_reports_the_ids_its_operation_created():
    session = Session(topic())
    result = accept(session, 7, {"op": "assign", "mention": 1, "cluster": None})
    assert result.created == {"cluster": 100}


def test_one_undo_reverts_the_operation_and_the_decision():
    session = Session(topic({1: ("A", [1]), 2: ("B", [2])}))
    before = session.state.snapshot()
    accept(session, 7)
    session.undo()
    assert session.state.snapshot() == before


def test_rejecting_a_suggestion_only_records_the_decision():
    session = Session(topic({1: ("A", [1])}))
    result = session.do({"op": "reject_suggestion", "suggestion": 7})
    assert result.effects == [
        {"e": "suggestion_decided", "suggestion": 7, "old": None, "new": "rejected"}
    ]


def test_rejecting_a_rejected_suggestion_again_is_refused():
    session = Session(topic())
    session.do({"op": "reject_suggestion", "suggestion": 7})
    with pytest.raises(AlreadyDecided, match="already rejected"):
        session.do({"op": "reject_suggestion", "suggestion": 7})


def test_a_rejected_suggestion_may_be_accepted_later():
    session = Session(topic({1: ("A", [1]), 2: ("B", [2])}))
    session.do({"op": "reject_suggestion", "suggestion": 7})
    result = accept(session, 7)
    assert result.effects[-1]["old"] == "rejected"
    assert session.state.decisions == {7: "accepted"}


def test_accepting_an_accepted_suggestion_again_is_refused_without_drawing_ids():
    session = Session(topic({1: ("A", [1, 3]), 2: ("B", [2])}))
    accept(session, 7)
    drawn = []
    session.new_id = lambda kind: drawn.append(kind) or 500
    with pytest.raises(AlreadyDecided, match="already accepted"):
        accept(session, 7, {"op": "split", "mentions": [3]})
    assert drawn == []


def test_rejecting_an_accepted_suggestion_is_refused_in_favour_of_undo():
    session = Session(topic({1: ("A", [1]), 2: ("B", [2])}))
    accept(session, 7)
    with pytest.raises(AlreadyDecided, match="undo"):
        session.do({"op": "reject_suggestion", "suggestion": 7})


def test_a_suggestion_whose_operation_is_refused_is_not_accepted():
    session = Session(topic())
    with pytest.raises(NotFound):
        accept(session, 7)
    assert session.state.decisions == {}


def test_a_suggestion_cannot_hold_another_decision():
    with pytest.raises(InvalidOperation, match=r"^operation\.op: must be one of"):
        accept(Session(topic()), 7, {"op": "reject_suggestion", "suggestion": 8})
