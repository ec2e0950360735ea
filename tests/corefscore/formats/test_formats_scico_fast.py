"""The SciCo reader's fast paths (orjson, bytes lines, one-pass checks) change nothing: the same
topics, errors (file, line, field, message) and warnings as ``json`` and the exact checks give,
read from a file or from a text stream."""

from __future__ import annotations

import dataclasses
import io
import json

import pytest
from hypothesis import given, settings
from scico_strategies import BIG, scico_lines, topic

from corefscore.formats import FormatErrors, _json, scico_parser
from corefscore.formats._io import canonical_int
from corefscore.formats.scico import parse_scico_line, read_scico_jsonl


def outcome(source):
    """(topics, errors, warnings, skipped) of the reader on a path or a text stream."""
    try:
        report = read_scico_jsonl(source)
    except FormatErrors as raised:
        report = raised.report
    return report.topics, report.errors, report.warnings, report.skipped


def text_outcome(text: str):
    stream = io.StringIO(text)
    stream.name = "data.jsonl"
    return outcome(stream)


def assert_same(text: str, tmp_path, monkeypatch) -> None:
    """The same outcome from a file, which the reader reads as bytes, as from the file opened
    in text mode (which also ends lines at ``\\r``), with orjson as with ``json`` alone."""
    path = tmp_path / "data.jsonl"
    path.write_bytes(text.encode("utf-8"))

    def as_text():
        with path.open(encoding="utf-8") as stream:
            return outcome(stream)

    expected = as_text()
    assert outcome(path) == expected
    with monkeypatch.context() as without_orjson:
        without_orjson.setattr(_json, "orjson", None)
        assert outcome(path) == as_text() == expected


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
def test_a_bad_token_is_named_as_the_exact_check_names_it(tokens, tmp_path, monkeypatch):
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
    assert_same(text, tmp_path, monkeypatch)
    _, errors, _, _ = text_outcome(text)
    assert errors
    assert errors[0].field.startswith("tokens")


def test_every_token_that_is_not_a_string_is_named():
    line = json.dumps(topic(tokens=[["neural", 7, "translation", "."], ["NMT", None, "."]]))
    _, errors, _, _ = text_outcome(line + "\n")
    assert [(e.record, e.field, e.message) for e in errors] == [
        (1, "tokens[0][1]", "a token must be a string, not a number"),
        (1, "tokens[1][1]", "a token must be a string, not null"),
    ]


def test_without_token_contents_a_token_that_is_not_a_string_is_counted_not_checked():
    line = json.dumps(topic(tokens=[["neural", 7, "translation", "."], ["NMT", None, "."]]))
    parsed = parse_scico_line(line, 1, "data.jsonl", token_contents=False)
    assert not parsed.errors
    assert [len(document.tokens) for document in parsed.topic.documents] == [4, 3]
    as_strings = parse_scico_line(line.replace("7", '"x"').replace("null", '"y"'), 1, "data.jsonl")
    assert parsed.topic.mentions == as_strings.topic.mentions


@pytest.mark.parametrize("tokens", BAD_TOKENS)
def test_fast_token_check_says_no_and_exact_check_names_the_field(tokens, monkeypatch):
    line = json.dumps(
        topic(tokens=tokens, mentions=[], relations=[], sentences=None, doc_ids=None, metadata=None)
    )
    assert not scico_parser.all_token_lists(tokens)
    fast = parse_scico_line(line, 1, "data.jsonl")
    monkeypatch.setattr(scico_parser, "all_token_lists", lambda tokens: False)
    exact = parse_scico_line(line, 1, "data.jsonl")
    assert fast.errors == exact.errors
    assert fast.errors


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
def test_what_orjson_refuses_or_reads_differently_gives_json_s_result(text, tmp_path, monkeypatch):
    assert_same(text + "\n", tmp_path, monkeypatch)
    assert_same(text, tmp_path, monkeypatch)


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
def test_integers_beyond_64_bits_read_as_json_reads_them(fields, tmp_path, monkeypatch):
    assert_same(json.dumps(topic(**fields)) + "\n", tmp_path, monkeypatch)


def test_json_loads_keeps_big_integers_exact():
    value, exact = _json.loads(json.dumps({"n": BIG}))
    assert exact or _json.has_float(value)
    assert _json.exact(json.dumps({"n": BIG})) == {"n": BIG}


def test_malformed_json_message_is_json_s():
    text = '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, 0]]'
    _, errors, _, _ = text_outcome(text + "\n")
    with pytest.raises(json.JSONDecodeError) as raised:
        json.loads(text + "\n")
    assert errors[0].message == f"malformed JSON: {raised.value.msg} at column {raised.value.colno}"


# --------------------------------------------------------------------------- lines


def test_lines_read_from_a_file_are_numbered_as_text_mode_numbers_them(tmp_path, monkeypatch):
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
        assert_same(text, tmp_path, monkeypatch)


def test_a_bad_offset_with_flatten_mentions_is_an_error_not_a_crash():
    line = json.dumps(topic(mentions=[[0, {"a": 1}, 2, 0], [1, 0, 0, 0], [1, 1, 1, 1]]))
    _, errors, _, _ = text_outcome(line)
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


@settings(max_examples=100, deadline=None)
@given(line=scico_lines())
def test_parse_without_flattened_checks_gives_the_same_topic_and_errors(line):
    full = parse_scico_line(line, 1, "data.jsonl")
    light = parse_scico_line(line, 1, "data.jsonl", flattened=False)
    assert light.errors == full.errors
    assert light.topic_id == full.topic_id
    assert [w for w in full.warnings if not w.field.startswith("flatten_")] == light.warnings
    if full.topic is not None:
        for name in ("flatten_tokens", "flatten_mentions"):
            full.topic.metadata["scico"].pop(name, None)
        assert light.topic == full.topic


@settings(max_examples=100, deadline=None)
@given(line=scico_lines())
def test_parse_without_token_contents_differs_only_on_tokens_that_are_not_strings(line):
    full = parse_scico_line(line, 1, "data.jsonl")
    light = parse_scico_line(line, 1, "data.jsonl", token_contents=False)
    if not full.errors:
        assert light == full
    elif not light.errors:
        assert all(error.message.startswith("a token must be a string") for error in full.errors)


def _counted(topic):
    """The topic as the scorer's reading gives it: tokens counted, the flattened copies gone."""
    if topic is None:
        return None
    documents = [
        dataclasses.replace(document, tokens=[""] * len(document.tokens))
        for document in topic.documents
    ]
    scico = dict(topic.metadata["scico"])
    scico["fields"] = [f for f in scico["fields"] if not f.startswith("flatten_")]
    for name in ("flatten_tokens", "flatten_mentions"):
        scico.pop(name, None)
        scico.get("extra", {}).pop(name, None)
    return dataclasses.replace(
        topic, documents=documents, metadata={**topic.metadata, "scico": scico}
    )


@settings(max_examples=200, deadline=None)
@given(line=scico_lines())
def test_the_scorers_reading_counts_tokens_and_otherwise_reads_as_the_importer(line):
    full = parse_scico_line(line, 1, "data.jsonl", flattened=False)
    light = parse_scico_line(line, 1, "data.jsonl", flattened=False, token_contents=False)
    if not full.errors:
        assert light.errors == []
        assert light.warnings == full.warnings
        assert _counted(light.topic) == _counted(full.topic)
    elif not light.errors:
        assert all(error.message.startswith("a token must be a string") for error in full.errors)


def test_the_scorers_reading_falls_back_where_simdjson_differs_from_json():
    duplicate = b'{"id": 1, "id": 2, "tokens": [["a"]], "mentions": [], "relations": []}'
    assert _json.tokens_counted(duplicate) is None
    assert _json.tokens_counted(b'{"tokens": [["a"], "b"]}') is None
    assert _json.tokens_counted(b"[1, 2]") is None
    assert _json.tokens_counted(b'{"tokens": [["a", "b"], []], "x": [1, {"y": 2}]}') == {
        "tokens": [["", ""], []],
        "x": [1, {"y": 2}],
    }
