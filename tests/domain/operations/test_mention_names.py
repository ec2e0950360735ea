"""How messages name a mention: by its text and its place, never by an internal id."""

import pytest

from annotation.domain.state import AnnotationState, Mention

from .factories import topic


def test_a_mention_is_named_by_its_text_document_and_first_word():
    assert topic().mention_name(6) == '"m6" (document 2, word 5)'


def test_words_count_from_one_at_the_first_span_of_a_discontinuous_mention():
    state = topic()
    state.put_mention(Mention(50, 3, ((10, 11), (20, 20)), added=True))
    assert state.mention_name(50) == '"new50" (document 3, word 11)'


def test_documents_are_numbered_in_topic_order_not_by_id():
    state = AnnotationState(documents={30: 10, 7: 10}, mentions={1: Mention(1, 7, ((2, 3),))})
    assert state.document_number(30) == 1
    assert state.document_number(7) == 2
    assert state.mention_name(1) == "the mention at document 2, word 3"


def test_a_long_text_is_cut_short():
    state = AnnotationState(
        documents={1: 10},
        mentions={1: Mention(1, 1, ((0, 0),))},
        mention_text=lambda mention: "a very long mention text " * 4,
    )
    name = state.mention_name(1)
    assert name.startswith('"a very long mention text a very long')
    assert '…" (document 1' in name
    assert len(name.split('"')[1]) == 40


def test_assigning_a_mention_to_its_own_cluster_names_it():
    from annotation.domain.errors import NoChange

    from .factories import Session

    session = Session(topic({1: ("A", [2])}))
    with pytest.raises(NoChange) as refused:
        session.do({"op": "assign", "mention": 2, "cluster": 1})
    assert refused.value.message == "\"m2\" (document 1, word 5) is already in cluster 'A' (#1)."
