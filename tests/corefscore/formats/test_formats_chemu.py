import io
import json
from collections import Counter

import pytest

from corefscore.formats import read
from corefscore.formats.chemu import (
    held_entries,
    link_entries,
    read_chemu_jsonlines,
    write_chemu_jsonlines,
)
from tests.formats import errors_of

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


def test_an_empty_side_is_kept_as_released_with_a_warning_naming_line_type_index_and_side():
    line = chemu_line(Coreference=[[[[7, 8]], []]])
    report = read_text(line)
    assert (
        str(report.warnings[0])
        == "train.jsonlines: line 1, field Coreference[0][1]: the antecedent is empty "
        "(anaphor [[7, 8]] 'The solution'); kept as released, not a link of the workspace"
    )
    topic = report.topics[0]
    # No link of the workspace (it names one mention), but written back in its place.
    assert [link.type for link in topic.links] == ["REACTION_ASSOCIATED"]
    assert held_entries(topic) == [
        {"key": "Coreference", "index": 0, "pair": [[[7, 8]], []], "why": "empty"}
    ]
    out = io.StringIO()
    write_chemu_jsonlines([topic], out)
    assert out.getvalue() == line + "\n"


def test_offsets_beyond_the_snippet_invalidate_the_line():
    errors = errors_of(read_text, chemu_line(Contained=[[[[7, 8]], [[10, 12]]]]))
    assert (
        str(errors[0])
        == "train.jsonlines: line 1, field Contained[0][1][0][1]: offset 12 is beyond the "
        "snippet's 12 tokens"
    )


def test_malformed_span_is_an_error():
    errors = errors_of(read_text, chemu_line(Transformed=[[[[7]], [[0, 1]]]]))
    assert errors[0].field == "Transformed[0][0][0]"


def test_overlapping_spans_of_one_mention_are_an_error():
    errors = errors_of(read_text, chemu_line(Transformed=[[[[7, 9], [8, 10]], [[0, 1]]]]))
    assert "overlap" in errors[0].message


def test_missing_sentences_and_malformed_json_are_errors():
    errors = errors_of(read_text, json.dumps({"doc_key": "x"}) + "\n{oops\n")
    assert [(e.record, e.field) for e in errors] == [(1, "sentences"), (2, None)]


def test_with_skip_invalid_a_broken_line_is_skipped_and_the_rest_read():
    report = read_text("{oops\n" + chemu_line() + "\n", skip_invalid=True)
    assert [t.external_id for t in report.topics] == ["0001"]
    assert [(s.record, s.scope) for s in report.skipped] == [(1, "record")]


def test_a_repeated_link_is_one_link_and_written_back_twice():
    line = chemu_line(Contained=[[[[7, 8]], [[0, 1]]], [[[7, 8]], [[0, 1]]]])
    report = read_text(line)
    assert sum(link.type == "CONTAINED" for link in report.topics[0].links) == 1
    assert [w.field for w in report.warnings] == ["Contained[1]"]
    assert link_entries(report.topics[0])["CONTAINED"] == 2
    out = io.StringIO()
    write_chemu_jsonlines(report.topics, out)
    assert out.getvalue() == line + "\n"


def test_an_antecedent_after_its_anaphor_is_kept_with_a_warning():
    report = read_text(chemu_line(Coreference=[[[[0, 1]], [[7, 8]]]]))
    assert len(report.topics[0].links) == 2
    assert "does not come before the anaphor" in report.warnings[0].message


def test_with_link_rules_what_the_workspace_refuses_is_kept_and_marked():
    report = read_text(chemu_line(Coreference=[[[[0, 1]], [[7, 8]]]]), link_rules=True)
    assert report.errors == []
    assert len(report.topics[0].links) == 2
    (mark,) = report.topics[0].metadata["chemu"]["marks"]
    assert mark["field"] == "Coreference[0]"
    assert mark["message"].startswith(
        "the antecedent (tokens 7-8 'The solution') does not come before the anaphor "
        "(tokens 0-1 'Compound 5'); imported as released, but the workspace refuses such a link"
    )


def test_the_training_file_keeps_every_link_entry(training_report):
    report = training_report
    assert len(report.topics) == 900
    assert report.errors == report.skipped == []
    held = [h for t in report.topics for h in held_entries(t)]
    assert sum(h["why"] == "empty" for h in held) == EMPTY_SIDE_LINKS
    assert sum(h["why"] == "repeat" for h in held) == 2


def test_the_training_file_warns_about_each_entry_the_workspace_would_not_take(training_report):
    messages = [w.message for w in training_report.warnings]
    assert sum("not a link of the workspace" in m for m in messages) == EMPTY_SIDE_LINKS
    assert sum("one link, written back twice" in m for m in messages) == 2
    assert sum("does not come before" in m for m in messages) == 3
    assert sum("is one-to-one" in m for m in messages) == 2


def test_the_training_files_link_entries_are_table_1s_bridging_counts(training_report):
    """The ChEMU-Ref overview's Table 1 (training): Transformed 493, Reaction-associated
    3,308, Work-up 6,230, Contained 346: the file's raw link entries."""
    counts: Counter[str] = Counter()
    for topic in training_report.topics:
        counts.update(link_entries(topic))
    assert counts == {
        "COREFERENCE": 2624,
        "TRANSFORMED": 493,
        "REACTION_ASSOCIATED": 3308,
        "WORK_UP": 6230,
        "CONTAINED": 346,
    }


def test_the_training_file_is_written_back_byte_for_byte(training_file, tmp_path):
    report = read("chemu", training_file, link_rules=True)
    out = tmp_path / "out.jsonlines"
    assert write_chemu_jsonlines(report.topics, out) == []
    assert out.read_text() == training_file.read_text()
    assert read("chemu", out, link_rules=True).topics == report.topics
