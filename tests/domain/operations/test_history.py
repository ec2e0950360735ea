import pytest

from annotation.domain.errors import CorruptEffects, NothingToRedo, NothingToUndo
from annotation.domain.history import LogEntry, redo_target, replay, undo_target

from .factories import Session, topic


def session_with_three_renames():
    session = Session(topic({1: ("v0", [1])}))
    snapshots = [session.state.snapshot()]
    for version in (1, 2, 3):
        session.do({"op": "rename", "cluster": 1, "label": f"v{version}"})
        snapshots.append(session.state.snapshot())
    return session, snapshots


def label(session):
    return session.state.clusters[1].label


def test_undo_reverts_the_latest_do():
    session, _ = session_with_three_renames()
    session.undo()
    assert label(session) == "v2"


def test_undo_of_n_steps_restores_the_snapshot_n_steps_back():
    session, snapshots = session_with_three_renames()
    for _ in range(3):
        session.undo()
    assert session.state.snapshot() == snapshots[0]


def test_redo_after_undo_gives_the_later_state_back():
    session, snapshots = session_with_three_renames()
    session.undo()
    session.undo()
    session.redo()
    assert session.state.snapshot() == snapshots[2]


def test_undo_after_redo_reverts_the_redone_step():
    session, snapshots = session_with_three_renames()
    session.undo()
    session.redo()
    session.undo()
    assert session.state.snapshot() == snapshots[2]


def test_undo_and_redo_target_the_original_do_entries():
    session, _ = session_with_three_renames()
    session.undo()
    assert (undo_target(session.log).seq, redo_target(session.log).seq) == (2, 3)


def test_a_new_do_clears_the_redo_stack():
    session, _ = session_with_three_renames()
    session.undo()
    session.do({"op": "set_note", "cluster": 1, "note": "n"})
    with pytest.raises(NothingToRedo):
        session.redo()


def test_nothing_to_undo_on_a_fresh_log():
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        Session(topic()).undo()


def test_nothing_to_undo_once_every_step_is_undone():
    session, _ = session_with_three_renames()
    for _ in range(3):
        session.undo()
    with pytest.raises(NothingToUndo):
        session.undo()


def test_replaying_the_log_reproduces_the_current_state():
    session, _ = session_with_three_renames()
    session.undo()
    session.redo()
    session.undo()
    assert replay(session.initial, session.log).snapshot() == session.state.snapshot()


def test_replay_leaves_the_initial_state_untouched():
    session, snapshots = session_with_three_renames()
    replay(session.initial, session.log)
    assert session.initial.snapshot() == snapshots[0]


def test_an_undo_entry_that_does_not_target_the_latest_do_is_corrupt():
    log = [LogEntry(1, "do", []), LogEntry(2, "do", []), LogEntry(3, "undo", [], target_seq=1)]
    with pytest.raises(CorruptEffects, match="not the next step to undo"):
        undo_target(log)


def test_an_unknown_entry_kind_is_corrupt():
    with pytest.raises(CorruptEffects, match="unknown kind"):
        undo_target([LogEntry(1, "fix", [])])
