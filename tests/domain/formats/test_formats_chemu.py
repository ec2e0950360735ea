import io
import json

import pytest

from annotation.domain.formats import FormatErrors, read
from annotation.domain.formats.chemu import read_chemu_jsonlines, write_chemu_jsonlines

EMPTY_SIDE_LINKS = 52


def chemu_line(**fields):
    snippet = {
        "doc_key": "0001",
        "sentences": [
            ["Compound", "5", "was", "dissolved", "in", "THF", "."],
            ["The", "solution", "was", "stirred", "."],
        ],
        "Coreference": [[[[7, 8]], [[0, 1], [4, 5]]]],
        "Transformed": [],
        "Reaction-associated": [[[[7, 8]], [[0, 1]]]],
        "Work-up": [],
        "Contained": [],
    }
    snippet.update(fields)
    return json.dumps(snippet)


def read_text(text, **options):
    stream = io.StringIO(text)
    stream.name = "train.jsonlines"
    return read_chemu_jsonlines(stream, **options)


def errors_of(text):
    with pytest.raises(FormatErrors) as raised:
        read_text(text)
    return raised.value.errors


@pytest.fixture(scope="module")
def training_file(shared_data):
    return shared_data / "chemu-ref" / "train.english.jsonlines"


@pytest.fixture(scope="module")
def training_report(training_file):
    return read("chemu", training_file, skip_invalid=True)


def test_a_line_becomes_one_topic_with_one_document_and_sentence_bounds():
    topic = read_text(chemu_line()).topics[0]
    assert topic.external_id == "0001"
    assert len(topic.documents) == 1
    assert topic.documents[0].sentences == [(0, 7), (7, 12)]


def test_mentions_are_the_distinct_span_sets_in_order_of_first_token():
    topic = read_text(chemu_line()).topics[0]
    assert [m.spans for m in topic.mentions] == [((0, 1),), ((0, 1), (4, 5)), ((7, 8),)]


def test_links_are_typed_and_point_from_anaphor_to_antecedent():
    topic = read_text(chemu_line()).topics[0]
    assert [(link.type, link.anaphor, link.antecedent) for link in topic.links] == [
        ("COREFERENCE", 2, 1),
        ("REACTION_ASSOCIATED", 2, 0),
    ]


def test_unsorted_discontinuous_spans_are_written_back_in_file_order():
    line = chemu_line(Coreference=[[[[7, 8]], [[4, 5], [0, 1]]]])
    topic = read_text(line).topics[0]
    assert topic.mentions[1].spans == ((0, 1), (4, 5))
    out = io.StringIO()
    write_chemu_jsonlines([topic], out)
    assert out.getvalue() == line + "\n"


def test_empty_side_is_an_error_naming_line_type_index_and_side():
    errors = errors_of(chemu_line(Coreference=[[[[7, 8]], []]]))
    assert (
        str(errors[0])
        == "train.jsonlines: line 1, field Coreference[0][1]: the antecedent is empty "
        "(anaphor [[7, 8]])"
    )


def test_with_skip_invalid_only_the_link_with_an_empty_side_is_dropped():
    report = read_text(chemu_line(Coreference=[[[[7, 8]], []]]), skip_invalid=True)
    assert [link.type for link in report.topics[0].links] == ["REACTION_ASSOCIATED"]
    assert [(s.record, s.scope) for s in report.skipped] == [(1, "link Coreference[0]")]


def test_offsets_beyond_the_snippet_invalidate_the_line():
    errors = errors_of(chemu_line(Contained=[[[[7, 8]], [[10, 12]]]]))
    assert (
        str(errors[0])
        == "train.jsonlines: line 1, field Contained[0][1][0][1]: offset 12 is beyond the "
        "snippet's 12 tokens"
    )


def test_malformed_span_is_an_error():
    errors = errors_of(chemu_line(Transformed=[[[[7]], [[0, 1]]]]))
    assert errors[0].field == "Transformed[0][0][0]"


def test_overlapping_spans_of_one_mention_are_an_error():
    errors = errors_of(chemu_line(Transformed=[[[[7, 9], [8, 10]], [[0, 1]]]]))
    assert "overlap" in errors[0].message


def test_missing_sentences_and_malformed_json_are_errors():
    errors = errors_of(json.dumps({"doc_key": "x"}) + "\n{oops\n")
    assert [(e.record, e.field) for e in errors] == [(1, "sentences"), (2, None)]


def test_with_skip_invalid_a_broken_line_is_skipped_and_the_rest_read():
    report = read_text("{oops\n" + chemu_line() + "\n", skip_invalid=True)
    assert [t.external_id for t in report.topics] == ["0001"]
    assert [(s.record, s.scope) for s in report.skipped] == [(1, "record")]


def test_a_repeated_link_is_kept_once_with_a_warning():
    report = read_text(chemu_line(Contained=[[[[7, 8]], [[0, 1]]], [[[7, 8]], [[0, 1]]]]))
    assert sum(link.type == "CONTAINED" for link in report.topics[0].links) == 1
    assert [w.field for w in report.warnings] == ["Contained[1]"]


def test_an_antecedent_after_its_anaphor_is_kept_with_a_warning():
    report = read_text(chemu_line(Coreference=[[[[0, 1]], [[7, 8]]]]))
    assert len(report.topics[0].links) == 2
    assert "does not come before the anaphor" in report.warnings[0].message


def test_the_training_file_reports_exactly_the_empty_side_links(training_report):
    report = training_report
    assert len(report.topics) == 900
    assert len(report.errors) == EMPTY_SIDE_LINKS
    assert len(report.skipped) == EMPTY_SIDE_LINKS
    assert all(s.scope.startswith("link ") for s in report.skipped)
    assert all("empty" in e.message for e in report.errors)


def test_the_training_file_warns_about_two_repeats_and_three_late_antecedents(training_report):
    messages = [w.message for w in training_report.warnings]
    assert sum("kept once" in m for m in messages) == 2
    assert sum("does not come before" in m for m in messages) == 3


def test_the_training_file_without_skip_invalid_raises_listing_every_empty_side(training_file):
    with pytest.raises(FormatErrors) as raised:
        read("chemu", training_file)
    errors = raised.value.errors
    assert len(errors) == EMPTY_SIDE_LINKS
    assert all(isinstance(e.record, int) for e in errors)
    assert "train.english.jsonlines: line 4, field Coreference[0][0]: the anaphor is empty" in str(
        raised.value
    )


def test_the_training_file_round_trips(training_file, training_report, tmp_path):
    out = tmp_path / "out.jsonlines"
    write_chemu_jsonlines(training_report.topics, out)
    assert read("chemu", out).topics == training_report.topics
    changed = {s.record for s in training_report.skipped}
    changed |= {w.record for w in training_report.warnings if "kept once" in w.message}
    original = training_file.read_text().splitlines()
    written = out.read_text().splitlines()
    assert len(written) == len(original)
    for number, (before, after) in enumerate(zip(original, written, strict=True), start=1):
        if number not in changed:
            assert json.loads(after) == json.loads(before), f"line {number}"
