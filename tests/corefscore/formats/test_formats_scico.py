import io
import json
from functools import partial

import pytest

from corefscore.corpus import ClusterData
from corefscore.formats import FormatErrors, read, write
from corefscore.formats.scico import read_scico_jsonl, write_scico_jsonl
from tests.formats import errors_of, scico_line

# A topic of two papers with their ids: "neural machine translation" and "NMT" corefer.
nmt_line = partial(
    scico_line,
    tokens=[["neural", "machine", "translation", "."], ["NMT", "works", "."]],
    doc_ids=[10, 11],
    mentions=[[0, 0, 2, 0], [1, 0, 0, 0], [1, 1, 1, 1]],
    relations=[[0, 1]],
)


def read_text(text, **options):
    stream = io.StringIO(text)
    stream.name = "data.jsonl"
    return read_scico_jsonl(stream, **options)


def test_fixture_topics_read_with_paragraphs_as_documents(fixtures_dir):
    report = read("scico", fixtures_dir / "scico_small.jsonl")
    assert [t.external_id for t in report.topics] == ["7", "8", "9"]
    topic = report.topics[1]
    assert [d.doc_id for d in topic.documents] == ["201", "201", "202", "203"]
    assert topic.documents[2].metadata["title"] == "ABSA survey"
    assert topic.relations == [("0", "1"), ("1", "2")]
    assert topic.metadata["scico"]["extra"] == {"hard_10": True, "hard_20": True, "curated": False}
    assert not report.warnings
    assert not report.errors


def test_mentions_keep_inclusive_token_offsets(fixtures_dir):
    topic = read("scico", fixtures_dir / "scico_small.jsonl").topics[0]
    mention = topic.mentions[0]
    start, end = mention.spans[0]
    assert topic.documents[mention.document].tokens[start : end + 1] == [
        "neural",
        "machine",
        "translation",
    ]


def test_sentences_are_half_open_token_ranges(fixtures_dir):
    topic = read("scico", fixtures_dir / "scico_small.jsonl").topics[0]
    assert topic.documents[1].sentences == [(0, 8), (8, 13)]


def test_fixture_round_trips_to_equal_topics_and_json_equal_lines(fixtures_dir, tmp_path):
    source = fixtures_dir / "scico_small.jsonl"
    topics = read("scico", source).topics
    out = tmp_path / "out.jsonl"
    assert write("scico", topics, out) == []
    assert read("scico", out).topics == topics
    written = [json.loads(line) for line in out.read_text().splitlines()]
    original = [json.loads(line) for line in source.read_text().splitlines()]
    assert written == original
    assert [list(w) for w in written] == [list(o) for o in original]


def test_prediction_lines_with_only_core_fields_round_trip():
    line = nmt_line(doc_ids=None)
    topics = read_text(line + "\n").topics
    out = io.StringIO()
    write_scico_jsonl(topics, out)
    assert json.loads(out.getvalue()) == json.loads(line)


def test_inclusive_sentence_ends_are_recognised_and_written_back():
    line = nmt_line(sentences=[[[0, 3]], [[0, 2]]])
    topic = read_text(line).topics[0]
    assert topic.documents[0].sentences == [(0, 4)]
    out = io.StringIO()
    write_scico_jsonl([topic], out)
    assert json.loads(out.getvalue())["sentences"] == [[[0, 3]], [[0, 2]]]


def test_metadata_keyed_by_doc_id_round_trips():
    metadata = {"10": {"title": "A"}, "11": {"title": "B"}}
    topic = read_text(nmt_line(metadata=metadata)).topics[0]
    assert topic.documents[1].metadata == {"title": "B"}
    out = io.StringIO()
    write_scico_jsonl([topic], out)
    assert json.loads(out.getvalue())["metadata"] == metadata


def test_malformed_json_names_file_and_line():
    errors = errors_of(read_text, nmt_line() + "\n{not json\n")
    assert len(errors) == 1
    assert str(errors[0]).startswith("data.jsonl: line 2: malformed JSON")


def test_missing_field_is_named():
    errors = errors_of(read_text, nmt_line(mentions=None))
    assert [(e.record, e.field) for e in errors] == [(1, "mentions")]


def test_offset_beyond_the_paragraph_names_the_offset():
    errors = errors_of(read_text, nmt_line(mentions=[[1, 1, 5, 0]]))
    assert (
        str(errors[0])
        == "data.jsonl: line 1, field mentions[0][2]: offset 5 is beyond the paragraph's 3 tokens"
    )


def test_paragraph_index_out_of_range_is_an_error():
    errors = errors_of(read_text, nmt_line(mentions=[[2, 0, 0, 0]], relations=[]))
    assert errors[0].field == "mentions[0][0]"


def test_start_after_end_is_an_error():
    errors = errors_of(read_text, nmt_line(mentions=[[0, 2, 1, 0]], relations=[]))
    assert "start 2 is after end 1" in errors[0].message


def test_duplicate_mentions_are_an_error():
    errors = errors_of(read_text, nmt_line(mentions=[[0, 0, 2, 0], [0, 0, 2, 1]]))
    assert errors[0].field == "mentions[1]"
    assert "duplicate of mentions[0]" in errors[0].message


def test_relation_naming_an_unknown_cluster_is_an_error():
    errors = errors_of(read_text, nmt_line(relations=[[0, 7]]))
    assert (
        str(errors[0])
        == "data.jsonl: line 1, field relations[0][1]: cluster 7 is not the cluster of any mention"
    )


def test_relation_with_an_empty_side_is_an_error():
    errors = errors_of(read_text, nmt_line(relations=[[0, None]]))
    assert errors[0].field == "relations[0]"
    assert "child side is empty" in errors[0].message


def test_self_relation_is_an_error():
    errors = errors_of(read_text, nmt_line(relations=[[1, 1]]))
    assert "its own parent" in errors[0].message


def test_cycle_in_gold_relations_is_named():
    mentions = [[0, 0, 0, 0], [0, 1, 1, 1], [0, 2, 2, 2]]
    errors = errors_of(read_text, nmt_line(mentions=mentions, relations=[[0, 1], [1, 2], [2, 0]]))
    assert [str(e) for e in errors] == [
        "data.jsonl: line 1, field relations: cycle in the hierarchy: 0 -> 1 -> 2 -> 0"
    ]


def test_duplicate_topic_ids_across_lines_are_an_error():
    errors = errors_of(read_text, nmt_line() + "\n" + nmt_line() + "\n")
    assert str(errors[0]) == "data.jsonl: line 2, field id: topic id 1 is already used on line 1"


def test_a_repeated_relation_is_refused_saying_why():
    # SciCo's scorer counts a repeat twice and a project keeps it once: refused, so that a
    # file scores alike everywhere (docs/scoring.md, "Repeated hierarchy relations")
    assert [str(e) for e in errors_of(read_text, nmt_line(relations=[[0, 1], [0, 1]]))] == [
        (
            "data.jsonl: line 1, field relations[1]: repeats relations[0] (0 -> 1): SciCo's "
            "scorer would count it twice, a project keeps it once; remove the repeat"
        )
    ]


def test_every_error_is_listed_not_only_the_first():
    text = "\n".join(
        [nmt_line(id=1, relations=[[0, 9]]), "{", nmt_line(id=3, mentions=[[0, 0, 99, 0]])]
    )
    with pytest.raises(FormatErrors) as raised:
        read_text(text)
    assert [e.record for e in raised.value.errors] == [1, 2, 3, 3]
    assert "line 2: malformed JSON" in str(raised.value)


def test_skip_invalid_returns_the_good_topics_and_lists_the_bad_lines():
    text = "\n".join([nmt_line(id=1), "{", nmt_line(id=3, relations=[[0, 9]]), nmt_line(id=4)])
    report = read_text(text, skip_invalid=True)
    assert [t.external_id for t in report.topics] == ["1", "4"]
    assert [(s.record, s.scope) for s in report.skipped] == [(2, "record"), (3, "record")]
    assert report.skipped[1].errors[0].field == "relations[0][1]"


def test_non_integer_cluster_keys_are_numbered_with_a_warning():
    topic = read_text(nmt_line()).topics[0]
    for mention in topic.mentions:
        mention.cluster = {"0": "nmt", "1": "works"}[mention.cluster]
    topic.relations = [("nmt", "works")]
    topic.clusters = [ClusterData("nmt"), ClusterData("works")]
    out = io.StringIO()
    warnings = write_scico_jsonl([topic], out)
    written = json.loads(out.getvalue())
    assert [m[3] for m in written["mentions"]] == [0, 0, 1]
    assert written["relations"] == [[0, 1]]
    assert "numbered" in warnings[0].message
