import pytest

from annotation.domain.errors import InvalidOperation
from annotation.domain.operations import plan

from .factories import ids_from, topic


def refusal(op):
    with pytest.raises(InvalidOperation) as refused:
        plan(topic({1: ("A", [1])}), op, ids_from(100))
    return refused.value


def test_an_operation_must_be_a_json_object():
    assert refusal(["assign", 1]).field == "operation"


def test_an_unknown_operation_names_the_op_field():
    error = refusal({"op": "explode"})
    assert error.field == "op"
    assert "explode" in error.message


def test_a_missing_op_field_is_named():
    assert refusal({"mention": 1}).message == "op: is required"


def test_a_missing_field_is_named():
    assert refusal({"op": "merge", "source": 1}).message == "target: is required"


def test_a_text_id_is_refused():
    assert refusal({"op": "merge", "source": "1", "target": 1}).field == "source"


def test_a_boolean_is_not_an_id():
    assert refusal({"op": "merge", "source": True, "target": 1}).field == "source"


def test_assign_requires_the_cluster_key_even_when_it_is_null():
    assert refusal({"op": "assign", "mention": 1}).field == "cluster"


def test_split_needs_a_non_empty_list_of_ids():
    assert refusal({"op": "split", "mentions": []}).field == "mentions"
    assert refusal({"op": "split", "mentions": [1, "2"]}).field == "mentions"


@pytest.mark.parametrize("spans", [[], [[1]], [[1, 2, 3]], [["1", 2]], "1-2", [[1.0, 2]]])
def test_spans_must_be_a_list_of_integer_pairs(spans):
    assert refusal({"op": "add_mention", "document": 1, "spans": spans}).field == "spans"


def test_a_note_must_be_text():
    assert refusal({"op": "set_note", "cluster": 1, "note": None}).field == "note"


def test_fields_inside_a_suggestions_operation_are_named_with_their_path():
    error = refusal(
        {"op": "accept_suggestion", "suggestion": 1, "operation": {"op": "merge", "source": 1}}
    )
    assert error.field == "operation.target"


def test_a_suggestion_without_an_operation_is_refused():
    assert refusal({"op": "accept_suggestion", "suggestion": 1}).field == "operation"


def test_the_refusal_serialises_for_the_api():
    assert refusal({"op": "merge", "source": 1}).to_dict() == {
        "error": "invalid_operation",
        "message": "target: is required",
        "field": "target",
    }
