"""The scorer's reading of SciCo lines (``scoring/scico_lines``, simdjson, tokens counted but
never decoded) against the importer's reader (``formats/scico``, every value checked): the
same plain topics on valid lines and files, the same scores, and the importer's errors (file,
line, field, message) on broken ones. The one difference, pinned here and stated in
docs/scoring.md: the scorer does not look at the contents of the tokens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from annotation.domain.formats import FormatErrors, read_scico_jsonl
from annotation.domain.scoring import api, cli, scico_lines
from annotation.domain.scoring.plain import from_topic
from tests.domain.formats.scico_strategies import BIG, topic
from tests.domain.formats.scico_strategies import scico_lines as generated_lines

TOKEN_ERROR = "a token must be a string"


@pytest.fixture
def exact_reading(monkeypatch):
    """Switch the fast path off: every line is read by the importer's code."""

    def switch():
        monkeypatch.setattr(scico_lines, "enabled", False)

    return switch


def with_string_tokens(line: str) -> str:
    """The line with every token that is not a string replaced by one (when it decodes)."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return line
    if not isinstance(obj, dict) or not isinstance(obj.get("tokens"), list):
        return line
    obj["tokens"] = [
        [token if isinstance(token, str) else "x" for token in paragraph]
        if isinstance(paragraph, list)
        else paragraph
        for paragraph in obj["tokens"]
    ]
    return json.dumps(obj)


def only_token_errors(parsed) -> bool:
    return bool(parsed.errors) and all(
        error.message.startswith(TOKEN_ERROR) for error in parsed.errors
    )


# --------------------------------------------------------------------------- one line


@settings(max_examples=400, deadline=None)
@given(line=generated_lines())
def test_a_line_reads_as_the_importer_reads_it(line):
    """Valid: the importer's topic, converted; broken: the importer's errors, word for word;
    a line whose only fault is a token that is not a string: the topic of that line with the
    token made a string (or the importer's errors, when simdjson refuses the line)."""
    data = line.encode()
    exact = scico_lines.exact_line(data, 1, "data.jsonl")
    got = scico_lines.plain_line(data, 1, "data.jsonl")
    if len(got) == 2:  # read by the importer's code
        assert got == exact
        return
    number, topic_id, annotation = got
    expected = exact
    if only_token_errors(exact[0]):
        expected = scico_lines.exact_line(with_string_tokens(line).encode(), 1, "data.jsonl")
    parsed, problem = expected
    assert not parsed.errors and not parsed.warnings and problem is None
    assert (number, topic_id, annotation) == (parsed.line, parsed.topic_id, parsed.topic)


@settings(max_examples=200, deadline=None)
@given(line=generated_lines())
def test_a_valid_line_takes_the_fast_path(line):
    """(so that the test above compares something): simdjson refuses only integers beyond 64
    bits here; a repeated relation is a warning, read by the importer's code."""
    parsed, problem = scico_lines.exact_line(line, 1, "data.jsonl")
    assume(not parsed.errors and not parsed.warnings and problem is None)
    assume(str(BIG) not in line)
    assert scico_lines.fast_line(line.encode()) == (parsed.topic_id, parsed.topic)


def test_the_bench_shape_takes_the_fast_path():
    line = json.dumps(topic(hard_10=True, curated=False)).encode()
    topic_id, annotation = scico_lines.fast_line(line)
    parsed, _ = scico_lines.exact_line(line, 1, "data.jsonl")
    assert (topic_id, annotation) == (
        parsed.topic_id,
        parsed.topic,
    ) and annotation.token_counts == (4, 3)


@pytest.mark.parametrize(
    "fields",
    [
        {
            "metadata": {"10": {"title": "A"}, "11": {"title": "B"}, "12": {"x": 1}}
        },  # keyed by doc id
        {"doc_ids": ["a", "07"], "id": "t1"},
        {"mentions": [[0, 0, 2, "c"], [1, 0, 0], [1, 1, 1, "7"]], "relations": [["c", "7"]]},
        {"mentions": [[0, 0, 2, 0], [1, 0, 0, "0"], [1, 1, 1, 1]]},  # 0 and "0": one cluster
        {"sentences": [[[0, 3]], [[0, 2]]]},  # inclusive ends
        {"sentences": None, "metadata": None, "doc_ids": None, "source": None, "relations": None},
        {
            "tokens": [["neural", "machine", "translation", "."], []],
            "sentences": [[[0, 4]], []],
            "mentions": [[0, 0, 2, 0]],
            "relations": [],
        },
        {"id": 18446744073709551615},  # the largest integer simdjson reads exactly
        {"hard_10": 1.5, "extra": {"n": [1, None, True]}},
    ],
)
def test_valid_variants_take_the_fast_path(fields):
    line = json.dumps(topic(**fields)).encode()
    parsed, problem = scico_lines.exact_line(line, 1, "data.jsonl")
    assert not parsed.errors and problem is None
    assert scico_lines.fast_line(line) == (parsed.topic_id, parsed.topic)


def test_a_token_that_is_not_a_string_is_the_importers_error_but_the_scorer_counts_it():
    line = json.dumps(topic(tokens=[["neural", 7, "translation", "."], ["NMT", None, "."]]))
    with pytest.raises(FormatErrors) as raised:
        read_scico_jsonl_text(line)
    assert [(e.field, e.message) for e in raised.value.errors] == [
        ("tokens[0][1]", "a token must be a string, not a number"),
        ("tokens[1][1]", "a token must be a string, not null"),
    ]
    number, topic_id, annotation = scico_lines.plain_line(line.encode(), 1, "data.jsonl")
    assert (topic_id, annotation) == scico_lines.fast_line(with_string_tokens(line).encode())


def read_scico_jsonl_text(text: str):
    import io

    stream = io.StringIO(text + "\n")
    stream.name = "data.jsonl"
    return read_scico_jsonl(stream)


@pytest.mark.parametrize(
    "text",
    [
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, NaN]]}',
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 1e400, 0]]}',
        '{"id": 1, "tokens": [["a\\ud800"]], "mentions": [[0, 0, 0, "\\ud800"]]}',
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, 0]]',
        '{"id": 1, "id": 2, "tokens": [["a"]], "mentions": []}',
        '{"id": 1, "tokens": [["a"]], "mentions": [], "mentions": [[0, 0, 5, 0]]}',
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, 0]]}{"id": 2}',
        '{"id": 1, "tokens": [["a\tb"]], "mentions": []}',
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, %d, 0]]}' % BIG,
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, %d]]}' % BIG,
        '{"id": %d, "tokens": [["a"]], "mentions": []}' % -BIG,
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, true]]}',
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, 0.0]]}',
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, 0]], "relations": [[0, 0]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0], [0, 1, 1, 1]], "relations": [[0, 1], [0, 1]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0], [0, 1, 1, 1]], "relations": [[0, 1], [1, 0]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0], [0, 1, 1, 1]], "relations": [[0, 2]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0], [0, 1, 1, 1]], "relations": [[0, ""]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0], [0, 0, 0, 1]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 1, 0, 0]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[1, 0, 0, 0]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 2, 0]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, -1, 0, 0]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0, 0]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0]], "relations": null}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0]], "source": 3}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0]], "doc_ids": [1, 2]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0]], "doc_ids": [false]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0]], "metadata": [1]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0]], "metadata": {"0": []}}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0]], "sentences": [[[0, 3]]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0]], "sentences": [[[1, 0]]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0]], "sentences": [[[0, 1.0]]]}',
        '{"id": 1, "tokens": [["a", "b"]], "mentions": [[0, 0, 0, 0]], "sentences": [[0, 2]]}',
        '{"id": 1, "tokens": ["a b"], "mentions": []}',
        '{"id": 1, "tokens": [["a"], {"b": 1}], "mentions": []}',
        '{"id": 1, "tokens": "a", "mentions": []}',
        '{"id": "", "tokens": [["a"]], "mentions": []}',
        '{"id": true, "tokens": [["a"]], "mentions": []}',
        '{"tokens": [["a"]], "mentions": []}',
        '[{"id": 1, "tokens": [["a"]], "mentions": []}]',
        '{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 0, 0]], "deep": %s}'
        % ("[" * 1100 + "]" * 1100),
    ],
)
def test_what_the_fast_path_leaves_is_read_by_the_importers_code(text):
    data = text.encode()
    assert scico_lines.fast_line(data) is None
    try:
        expected = scico_lines.exact_line(data, 3, "data.jsonl")
    except RecursionError:  # (json's own limit: the scorer fails as the importer does)
        with pytest.raises(RecursionError):
            scico_lines.plain_line(data, 3, "data.jsonl")
        return
    assert scico_lines.plain_line(data, 3, "data.jsonl") == expected


def test_bytes_that_are_not_utf8_fail_as_reading_text_does():
    data = b'{"id": 1, "tokens": [["\xff"]], "mentions": []}'
    with pytest.raises(UnicodeDecodeError):
        scico_lines.exact_line(data, 1, "data.jsonl")
    with pytest.raises(UnicodeDecodeError):
        scico_lines.plain_line(data, 1, "data.jsonl")


def test_a_document_still_referenced_does_not_block_the_next_line():
    import simdjson

    line = json.dumps(topic()).encode()
    parser = scico_lines._parser = simdjson.Parser()
    held = parser.parse(line)["tokens"]  # a proxy of the parser's current document
    assert scico_lines.fast_line(line) is not None
    assert scico_lines._parser is not parser and len(held) == 2


# --------------------------------------------------------------------------- files


@st.composite
def scico_files(draw, valid: bool):
    """Lines of a file: distinct topic ids when ``valid``; tokens always strings (the one
    thing the two readings may differ on, tested line by line above)."""
    lines = draw(st.lists(generated_lines(), min_size=0, max_size=5))
    lines = [line for line in lines if with_string_tokens(line) == line]
    if valid:
        lines = [json.loads(line) for line in lines if _valid(line)]
        for number, obj in enumerate(lines):
            obj["id"] = number
        lines = [json.dumps(obj) for obj in lines]
    separator = draw(st.sampled_from(["\n", "\n\n", "\r\n"]))
    return separator.join(lines) + draw(st.sampled_from(["", "\n"]))


def _valid(line: str) -> bool:
    parsed, problem = scico_lines.exact_line(line, 1, "x")
    return not parsed.errors and problem is None


def read_both(paths: list[Path], exact_reading):
    def outcome():
        try:
            return cli._read_all([str(path) for path in paths], "scico")
        except cli.InputError as error:
            return str(error)

    fast = outcome()
    exact_reading()
    return fast, outcome()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(gold=scico_files(valid=True), system=scico_files(valid=True))
def test_valid_files_give_the_same_topics_and_scores(gold, system, tmp_path, monkeypatch):
    monkeypatch.setattr(scico_lines, "enabled", True)
    paths = [tmp_path / "gold.jsonl", tmp_path / "system.jsonl"]
    for path, text in zip(paths, (gold, system)):
        path.write_bytes(text.encode())
    fast = cli._read_all([str(path) for path in paths], "scico")
    monkeypatch.setattr(scico_lines, "enabled", False)
    exact = cli._read_all([str(path) for path in paths], "scico")
    assert (
        fast == exact == [[from_topic(t) for t in read_scico_jsonl(path).topics] for path in paths]
    )
    assert api.iaa(fast, scheme="scico") == api.iaa(exact, scheme="scico")
    common = {t.topic_id for t in fast[0]} & {t.topic_id for t in fast[1]}
    for singletons in (False, True):
        scores = [
            api.score_scico(
                *([t for t in side if t.topic_id in common] for side in reading),
                keep_singletons=singletons,
            )
            for reading in (fast, exact)
        ]
        assert scores[0] == scores[1]


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(files=st.lists(scico_files(valid=False), min_size=1, max_size=3))
def test_broken_files_give_the_same_messages(files, tmp_path, monkeypatch):
    monkeypatch.setattr(scico_lines, "enabled", True)
    paths = [tmp_path / f"f{i}.jsonl" for i in range(len(files))]
    for path, text in zip(paths, files):
        path.write_bytes(text.encode())

    def outcome():
        try:
            return cli._read_all([str(path) for path in paths], "scico")
        except cli.InputError as error:
            return str(error)
        except RecursionError:
            return "RecursionError"

    fast = outcome()
    monkeypatch.setattr(scico_lines, "enabled", False)
    assert fast == outcome()


def test_a_repeated_topic_id_is_the_importers_message(tmp_path, exact_reading):
    path = tmp_path / "gold.jsonl"
    path.write_text(json.dumps(topic()) + "\n\n" + json.dumps(topic()) + "\n")
    fast, exact = read_both([path], exact_reading)
    assert fast == exact and "line 3, field id: topic id 1 is already used on line 1" in fast


def test_a_line_without_the_fast_path_among_fast_lines_keeps_file_order(tmp_path, exact_reading):
    path = tmp_path / "gold.jsonl"
    path.write_text(
        "\n".join(
            [
                json.dumps(topic(id=1)),
                json.dumps(
                    topic(id=2, relations=[[0, 1], [0, 1]])
                ),  # a warning: the importer's code
                json.dumps(topic(id=3, hard_10=BIG)),  # simdjson refuses it: the importer's code
            ]
        )
        + "\n"
    )
    fast, exact = read_both([path], exact_reading)
    assert fast == exact and [t.topic_id for t in fast[0]] == ["1", "2", "3"]
