"""The SciCo reader's fast paths (orjson, bytes lines, one-pass checks) against the reader as it
was (``reference_scico``): the same topics, errors (file, line, field, message) and warnings,
on valid lines and on lines broken in every field."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_scico import read_scico_jsonl as reference_read
from scico_strategies import BIG, scico_lines, topic

from annotation.domain.formats import FormatErrors, _json, scico_parser
from annotation.domain.formats._io import canonical_int
from annotation.domain.formats.scico import parse_scico_line, read_scico_jsonl


def outcome(reader, text: str, tmp_path=None):
    """(topics, errors, warnings) of a reader on ``text``, read from a file when ``tmp_path``
    is given (the bytes path), else from a text stream."""
    if tmp_path is not None:
        path = tmp_path / "data.jsonl"
        path.write_bytes(text.encode("utf-8"))
        source = path
    else:
        source = io.StringIO(text)
        source.name = "data.jsonl"
    try:
        report = reader(source)
    except FormatErrors as raised:
        report = raised.report
    except (
        TypeError
    ):  # the reference reader crashed on a bad offset in a line with flatten_mentions
        return "crash"
    return report.topics, report.errors, report.warnings, report.skipped


def assert_same(text: str, tmp_path=None) -> None:
    """Same outcome as the reference reader's, from a text stream and (with ``tmp_path``) from
    a file, which the reader reads as bytes (text mode would also split lines at ``\r``)."""
    for where in (None, tmp_path) if tmp_path is not None else (None,):
        expected = outcome(reference_read, text, where)
        got = outcome(read_scico_jsonl, text, where)
        if expected == "crash":  # fixed since: the line is reported, with the mention's error
            assert got[1] and any(error.field.startswith("mentions[") for error in got[1])
        else:
            assert got == expected


# --------------------------------------------------------------------------- tokens


BAD_TOKENS = [
    [["a", 1]],
    [["a", None], ["b", 2.5]],
    [["a"], "b c"],
    [["a"], {"b": "c"}],
    [["a", ["b"]], [True]],
    "tokens",
    [[], ["a", "b", 3, 4]],
]


@pytest.mark.parametrize("tokens", BAD_TOKENS)
def test_a_bad_token_is_named_as_the_exact_check_names_it(tokens, tmp_path):
    text = (
        json.dumps(
            topic(
                tokens=tokens,
                mentions=[],
                relations=[],
                sentences=None,
                doc_ids=None,
                metadata=None,
            )
        )
        + "\n"
    )
    assert_same(text, tmp_path)
    _, errors, _, _ = outcome(read_scico_jsonl, text)
    assert errors and errors[0].field.startswith("tokens")


@pytest.mark.parametrize("tokens", BAD_TOKENS)
def test_fast_token_check_says_no_and_exact_check_names_the_field(tokens, monkeypatch):
    line = json.dumps(
        topic(tokens=tokens, mentions=[], relations=[], sentences=None, doc_ids=None, metadata=None)
    )
    assert not scico_parser.all_token_lists(tokens)
    fast = parse_scico_line(line, 1, "data.jsonl")
    monkeypatch.setattr(scico_parser, "all_token_lists", lambda tokens: False)
    exact = parse_scico_line(line, 1, "data.jsonl")
    assert fast.errors == exact.errors and fast.errors


def test_fast_token_check_accepts_lists_of_strings_only():
    assert scico_parser.all_token_lists([["a", "b"], [], ["c"]])
    assert scico_parser.all_token_lists([])
    assert not scico_parser.all_token_lists([["a"], "bc"])  # a string is not a paragraph
    assert not scico_parser.all_token_lists([("a",)])


# --------------------------------------------------------------------------- JSON


@pytest.mark.parametrize(
    "text",
    [
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, NaN]]}',
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 1e400, 0]]}',
        '{"id": 1, "tokens": [["a\\ud800"]], "mentions": [[0, 0, 0, 0]]}',
        '\ufeff{"id": 1, "tokens": [["a"]], "mentions": []}',
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, 0]]',
        '{"id": 1, "tokens": [["a"]] "mentions": []}',
        '{"id": 1, "id": 2, "tokens": [["a"]], "mentions": []}',
        "[1, 2]",
        "  \t ",
        "\xa0",
        "not json",
    ],
)
def test_what_orjson_refuses_or_reads_differently_gives_json_s_result(text, tmp_path):
    assert_same(text + "\n", tmp_path)
    assert_same(text, tmp_path)


@pytest.mark.parametrize(
    "fields",
    [
        {"mentions": [[0, 0, BIG, 0]]},
        {"mentions": [[0, 0, 2, BIG]], "relations": []},
        {"id": BIG},
        {"doc_ids": [BIG, 11]},
        {"sentences": [[[0, BIG]], [[0, 3]]]},
        {"relations": [[0, BIG]]},
        {"metadata": [{"n": BIG}, {"n": 1.5}]},
        {"hard_10": BIG},
        {"flatten_mentions": [[0, 2, BIG]]},
        {"flatten_tokens": ["neural", BIG]},
    ],
)
def test_integers_beyond_64_bits_read_as_json_reads_them(fields, tmp_path):
    assert_same(json.dumps(topic(**fields)) + "\n", tmp_path)


def test_json_loads_keeps_big_integers_exact():
    value, exact = _json.loads(json.dumps({"n": BIG}))
    assert exact or _json.has_float(value)
    assert _json.exact(json.dumps({"n": BIG})) == {"n": BIG}


def test_malformed_json_message_is_json_s():
    text = '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, 0]]'
    _, errors, _, _ = outcome(read_scico_jsonl, text + "\n")
    with pytest.raises(json.JSONDecodeError) as raised:
        json.loads(text + "\n")
    assert errors[0].message == f"malformed JSON: {raised.value.msg} at column {raised.value.colno}"


# --------------------------------------------------------------------------- lines


def test_lines_read_from_a_file_are_numbered_as_text_mode_numbers_them(tmp_path):
    good = json.dumps(topic())
    other = json.dumps(topic(id=2))
    for text in [
        good + "\n\n   \n" + other + "\n",
        good + "\r\n" + other + "\r\n",
        good + "\r" + other,
        "\n" + good + "\n\xa0\n" + other,
        good + "\n" + good + "\n",  # duplicate id
        "",
        "\n\n",
    ]:
        assert_same(text, tmp_path)


def test_a_bad_offset_with_flatten_mentions_is_an_error_not_a_crash():
    line = json.dumps(topic(mentions=[[0, {"a": 1}, 2, 0], [1, 0, 0, 0], [1, 1, 1, 1]]))
    _, errors, _, _ = outcome(read_scico_jsonl, line)
    assert [(e.record, e.field) for e in errors] == [(1, "mentions[0][1]")]


def test_a_file_that_is_not_utf8_fails_as_reading_it_as_text_does(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_bytes(json.dumps(topic()).encode() + b'\n{"id": "\xff"}\n')
    with pytest.raises(UnicodeDecodeError):
        read_scico_jsonl(path)


# --------------------------------------------------------------------------- canonical_int


@pytest.mark.parametrize(
    "text",
    [
        "0",
        "12",
        "-3",
        "-0",
        "007",
        "+5",
        " 5",
        "5 ",
        "1_000",
        "\u0661",
        "",
        "-",
        "1.0",
        "x",
        "9" * 5000,
    ],
)
def test_canonical_int_is_unchanged(text):
    def reference(text):
        try:
            value = int(text)
        except (TypeError, ValueError):
            return None
        return value if str(value) == text else None

    assert canonical_int(text) == reference(text)


@pytest.mark.parametrize("value", [5, None, 1.5, b"12", ["1"]])
def test_canonical_int_of_a_non_string_is_none(value):
    assert canonical_int(value) is None


# --------------------------------------------------------------------------- generated lines


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=st.lists(scico_lines(), min_size=1, max_size=3))
def test_generated_lines_read_as_the_reference_reader_reads_them(lines, tmp_path):
    assert_same("\n".join(lines) + "\n", tmp_path)


@settings(max_examples=100, deadline=None)
@given(line=scico_lines())
def test_parse_without_flattened_checks_gives_the_same_topic_and_errors(line):
    full = parse_scico_line(line, 1, "data.jsonl")
    light = parse_scico_line(line, 1, "data.jsonl", flattened=False)
    assert light.errors == full.errors and light.topic_id == full.topic_id
    assert [w for w in full.warnings if not w.field.startswith("flatten_")] == light.warnings
    if full.topic is not None:
        for name in ("flatten_tokens", "flatten_mentions"):
            full.topic.metadata["scico"].pop(name, None)
        assert light.topic == full.topic
