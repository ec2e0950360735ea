"""Bulk operations (annotation/domain/operations/bulk.py): many mentions added or rejected as
one operation, one undo step, refused whole when one part breaks a rule."""

import pytest

from annotation.domain.errors import DuplicateError, InvalidOperation, InvalidSpans, NoChange
from annotation.domain.operations import plan
from annotation.domain.operations.bulk import BULK_LIMIT, plan_parts

from .factories import Session, ids_from, topic

ALLOWED = {"allow_add_mentions": True, "allow_reject_mentions": True, "anaphora": True}


def places(*spans, document=1):
    return [{"document": document, "spans": [list(s)]} for s in spans]


def test_add_mentions_adds_every_place_in_one_step_and_one_undo_removes_them_all():
    session = Session(topic({1: ("A", [1])}, **ALLOWED))
    before = session.state.snapshot()

    result = session.do({"op": "add_mentions", "mentions": places((20, 21), (30, 30))})

    added = [e for e in result.effects if e["e"] == "mention_added"]
    assert [(e["document"], e["spans"]) for e in added] == [(1, [[20, 21]]), (1, [[30, 30]])]
    assert len(session.log) == 1
    session.undo()
    assert session.state.snapshot() == before
    session.redo()
    assert {m.spans for m in session.state.mentions.values() if m.added} == {
        ((20, 21),),
        ((30, 30),),
    }


def test_two_places_with_the_same_spans_are_refused_whole_naming_the_words():
    state = topic(**ALLOWED)
    before = state.snapshot()

    with pytest.raises(DuplicateError) as refused:
        plan(state, {"op": "add_mentions", "mentions": places((20, 21), (20, 21))}, ids_from(1000))

    # The message names the place (text and word), not an id; nothing changed.
    assert refused.value.message.startswith('"new-1" (document 1, word 21): ')
    assert "already has exactly these spans" in refused.value.message
    assert state.snapshot() == before


def test_a_place_outside_its_document_refuses_the_batch_and_says_where():
    with pytest.raises(InvalidSpans, match=r"word 39\): The span \[38, 40\] lies outside"):
        plan(
            topic(**ALLOWED),
            {"op": "add_mentions", "mentions": places((5, 5), (38, 40))},
            ids_from(1000),
        )


def test_add_mentions_follows_the_project_setting():
    with pytest.raises(Exception, match="does not let annotators add mentions"):
        plan(topic(), {"op": "add_mentions", "mentions": places((20, 20))}, ids_from(1000))


def test_reject_mentions_rejects_each_and_one_undo_restores_them_and_their_links():
    session = Session(topic({1: ("A", [1, 2])}, links=[("COREFERENCE", 2, 1)], **ALLOWED))
    before = session.state.snapshot()

    session.do({"op": "reject_mentions", "mentions": [1, 2]})

    assert [session.state.mentions[m].rejected for m in (1, 2)] == [True, True]
    assert (session.state.links, session.state.clusters) == (set(), {})
    session.undo()
    assert session.state.snapshot() == before


def test_rejecting_a_mention_twice_in_one_batch_is_refused_by_name():
    state = topic(rejected=(3,), **ALLOWED)
    with pytest.raises(NoChange, match='"m3" .* is already rejected'):
        plan(state, {"op": "reject_mentions", "mentions": [1, 3]}, ids_from(1000))


def test_malformed_or_oversized_batches_name_the_field():
    state = topic(**ALLOWED)
    with pytest.raises(InvalidOperation, match=r"mentions\[1\]\.spans: is required"):
        plan(
            state,
            {"op": "add_mentions", "mentions": [*places((1, 1)), {"document": 1}]},
            ids_from(1000),
        )
    with pytest.raises(InvalidOperation, match="mentions: must be a non-empty list"):
        plan(state, {"op": "add_mentions", "mentions": []}, ids_from(1000))
    with pytest.raises(InvalidOperation, match=f"at most {BULK_LIMIT:,} at once"):
        plan(
            state,
            {"op": "reject_mentions", "mentions": list(range(BULK_LIMIT + 1))},
            ids_from(1000),
        )


def test_a_bulk_operation_is_no_suggestion():
    op = {"op": "reject_mentions", "mentions": [1]}
    with pytest.raises(InvalidOperation, match="operation.op: must be one of"):
        plan(
            topic(**ALLOWED),
            {"op": "accept_suggestion", "suggestion": 1, "operation": op},
            ids_from(1000),
        )


def test_parts_see_what_the_parts_before_them_did():
    # The second part plans against the state with the first one's mention: a link to it.
    state = topic(**ALLOWED)
    new_id = ids_from(500)
    first = lambda s: plan(s, {"op": "add_mention", "document": 1, "spans": [[30, 30]]}, new_id)
    second = lambda s: plan(
        s, {"op": "add_link", "type": "COREFERENCE", "anaphor": 500, "antecedent": 1}, new_id
    )
    skipped = lambda s: None

    result = plan_parts(state, [(None, first), (None, skipped), (None, second)], nothing="-")

    assert [e["e"] for e in result.effects] == ["mention_added", "link_added"]
    assert 500 not in state.mentions  # the state planned against is untouched
    with pytest.raises(NoChange, match="nothing here"):
        plan_parts(state, [(None, skipped)], nothing="nothing here")
