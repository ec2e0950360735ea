"""The validate operation: a decision per mention, undone and redone through its effect."""

import pytest

from annotation.domain.effects import apply_effects, invert_effects
from annotation.domain.errors import InvalidOperation, NoChange, NotAllowed, NotFound
from annotation.domain.history import replay
from annotation.domain.state import Validation

from .factories import Session, topic

REASONS = ("trigger", "context", "subevent")


def session() -> Session:
    return Session(topic(validation=True, hierarchy=False, validation_reasons=REASONS))


def test_accepting_a_mention_records_the_decision():
    s = session()
    s.do({"op": "validate", "mention": 3, "decision": "accepted"})
    assert s.state.validations == {3: Validation("accepted", None, "")}


def test_rejecting_needs_one_of_the_projects_reasons():
    s = session()
    with pytest.raises(InvalidOperation, match="reason"):
        s.do({"op": "validate", "mention": 3, "decision": "rejected", "reason": None})
    with pytest.raises(InvalidOperation, match="reason"):
        s.do({"op": "validate", "mention": 3, "decision": "rejected", "reason": "other"})
    s.do(
        {"op": "validate", "mention": 3, "decision": "rejected", "reason": "context", "note": " x "}
    )
    assert s.state.validations[3] == Validation("rejected", "context", "x")


def test_an_accepted_mention_takes_no_reason():
    with pytest.raises(InvalidOperation):
        session().do({"op": "validate", "mention": 3, "decision": "accepted", "reason": "trigger"})


def test_changing_ones_mind_replaces_the_decision_and_undo_restores_the_first():
    s = session()
    s.do({"op": "validate", "mention": 3, "decision": "accepted"})
    s.do({"op": "validate", "mention": 3, "decision": "rejected", "reason": "subevent"})
    assert s.state.validations[3].decision == "rejected"
    s.undo()
    assert s.state.validations[3] == Validation("accepted", None, "")
    s.undo()
    assert s.state.validations == {}
    s.redo()
    assert s.state.validations[3].decision == "accepted"


def test_the_same_decision_twice_is_no_change():
    s = session()
    s.do({"op": "validate", "mention": 3, "decision": "accepted"})
    with pytest.raises(NoChange, match="m3"):
        s.do({"op": "validate", "mention": 3, "decision": "accepted"})


def test_projects_without_the_validation_scheme_refuse_it():
    with pytest.raises(NotAllowed):
        Session(topic()).do({"op": "validate", "mention": 3, "decision": "accepted"})


def test_an_unknown_mention_is_not_found():
    with pytest.raises(NotFound):
        session().do({"op": "validate", "mention": 99, "decision": "accepted"})


def test_replaying_the_log_reproduces_the_state_and_inverse_effects_cancel():
    s = session()
    for m in (1, 2, 3):
        s.do({"op": "validate", "mention": m, "decision": "accepted"})
    result = s.do({"op": "validate", "mention": 2, "decision": "rejected", "reason": "trigger"})
    s.undo()
    assert replay(s.initial.copy(), s.log).snapshot() == s.state.snapshot()
    before = s.state.snapshot()
    apply_effects(s.state, result.effects)
    apply_effects(s.state, invert_effects(result.effects))
    assert s.state.snapshot() == before
