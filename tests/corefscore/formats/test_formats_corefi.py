import io
import json

import pytest

from corefscore.formats import read, write
from corefscore.formats.corefi import read_corefi_json, write_corefi_json
from tests.formats import errors_of

EXAMPLES = [
    "annotation_example",
    "guided_mt",
    "guided_sentiment",
    "mt_annotation",
    "review_example",
    "scientific_onboarding_tutorial",
    "scirex_example_",
    "sentiment_examples",
    "trial_hmm",
    "trial_image_generation",
    "trial_speech",
    "trial_text_generation",
]


def small_file(**fields):
    obj = {
        "mode": "annotation",
        "tokens": [
            {"i": 0, "document": 0, "paragraph": 0, "doc_name": "p1", "text": "Machine"},
            {"i": 1, "document": 0, "paragraph": 0, "doc_name": "p1", "text": "translation"},
            {"i": 2, "document": 0, "paragraph": 1, "doc_name": "p1", "text": "MT"},
            {"i": 3, "document": 1, "paragraph": 2, "doc_name": "p2", "text": "NMT"},
        ],
        "mentions": [
            {"start": 0, "end": 1, "first": True, "clustId": "0-1"},
            {"start": 2, "end": 2, "clustId": "0-1"},
            {"start": 3, "end": 3},
        ],
        "selectedCluster": "0-1",
    }
    obj.update(fields)
    return json.dumps(obj)


def read_text(text, **options):
    stream = io.StringIO(text)
    stream.name = "task.json"
    return read_corefi_json(stream, **options)


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_corefi_example_reads_and_writes_back_an_equal_json_document(
    shared_data, tmp_path, name
):
    source = shared_data / "corefi" / f"{name}.json"
    report = read("corefi", source)
    assert report.errors == []
    assert report.warnings == []
    out = tmp_path / f"{name}.json"
    assert write("corefi", report.topics, out) == []
    assert json.loads(out.read_text()) == json.loads(source.read_text())
    assert read("corefi", out).topics == report.topics


def test_each_document_and_paragraph_becomes_a_document_with_local_offsets():
    topic = read_text(small_file()).topics[0]
    assert [(d.doc_id, d.tokens) for d in topic.documents] == [
        ("p1", ["Machine", "translation"]),
        ("p1", ["MT"]),
        ("p2", ["NMT"]),
    ]
    assert [(m.document, m.spans) for m in topic.mentions] == [
        (0, ((0, 1),)),
        (1, ((0, 0),)),
        (2, ((0, 0),)),
    ]
    assert topic.documents[1].metadata == {"document": 0, "paragraph": 1, "doc_name": "p1"}


def test_the_topic_id_is_the_file_stem_unless_the_file_has_an_id():
    assert read_text(small_file()).topics[0].external_id == "task"
    assert read_text(small_file(id="topic-9")).topics[0].external_id == "topic-9"


def test_clusters_come_from_clust_ids_and_unclustered_mentions_have_none():
    topic = read_text(small_file()).topics[0]
    assert [c.key for c in topic.clusters] == ["0-1"]
    assert [m.cluster for m in topic.mentions] == ["0-1", "0-1", None]
    assert topic.mentions[0].metadata == {"corefi": {"first": True}}


def test_cluster_descriptions_become_labels_and_follow_renames():
    text = small_file(clustersDesc=[{"clustId": "0-1", "text": "Machine Translation"}])
    topic = read_text(text).topics[0]
    assert topic.clusters[0].label == "Machine Translation"
    topic.clusters[0].label = "MT"
    out = io.StringIO()
    write_corefi_json(topic, out)
    assert json.loads(out.getvalue())["clustersDesc"] == [{"clustId": "0-1", "text": "MT"}]


def test_flags_and_unknown_fields_are_kept():
    topic = read_text(small_file(hypernym=True, snackbarTimeout=5000)).topics[0]
    assert topic.metadata["corefi"]["extra"]["hypernym"] is True
    out = io.StringIO()
    write_corefi_json(topic, out)
    assert json.loads(out.getvalue()) == json.loads(small_file(hypernym=True, snackbarTimeout=5000))


def test_malformed_json_is_an_error_naming_the_file():
    errors = errors_of(read_text, "{")
    assert str(errors[0]).startswith("task.json: malformed JSON")


def test_mention_end_beyond_the_tokens_is_named_by_json_path():
    errors = errors_of(read_text, small_file(mentions=[{"start": 2, "end": 9}]))
    assert (
        str(errors[0])
        == "task.json: mentions[0], field end: token 9 does not exist (the file has 4 tokens)"
    )


def test_mention_crossing_a_paragraph_is_an_error():
    errors = errors_of(read_text, small_file(mentions=[{"start": 1, "end": 2}]))
    assert "cross a document or paragraph boundary" in errors[0].message


def test_duplicate_mentions_are_an_error():
    errors = errors_of(
        read_text,
        small_file(mentions=[{"start": 1, "end": 1}, {"start": 1, "end": 1, "clustId": "x"}]),
    )
    assert errors[0].record == "mentions[1]"


def test_tokens_out_of_order_are_an_error():
    obj = json.loads(small_file())
    obj["tokens"][2]["i"] = 7
    errors = errors_of(read_text, json.dumps(obj))
    assert (
        str(errors[0])
        == "task.json: tokens[2], field i: is 7, expected 2 (tokens must be listed in order)"
    )


def test_a_paragraph_that_resumes_later_is_an_error():
    obj = json.loads(small_file(mentions=[]))
    obj["tokens"][3].update(document=0, paragraph=0, doc_name="p1")
    assert "resumes after other tokens" in errors_of(read_text, json.dumps(obj))[0].message


def test_gold_mentions_must_point_at_existing_tokens():
    errors = errors_of(
        read_text, small_file(goldMentions=[{"start": 0, "end": 12, "clustId": "0-1"}])
    )
    assert (errors[0].record, errors[0].field) == ("goldMentions[0]", "end")


def test_with_skip_invalid_a_bad_file_is_listed_and_no_topic_returned():
    report = read_text(small_file(mentions=[{"start": 5, "end": 5}]), skip_invalid=True)
    assert report.topics == []
    assert len(report.skipped) == 1
    assert report.skipped[0].errors[0].record == "mentions[0]"


def test_a_topic_from_another_format_gets_documents_numbered_by_doc_id(fixtures_dir):
    topic = read("scico", fixtures_dir / "scico_small.jsonl").topics[1]
    out = io.StringIO()
    write_corefi_json(topic, out)
    written = json.loads(out.getvalue())
    assert [(t["document"], t["paragraph"]) for t in written["tokens"][::9][:3]] == [
        (0, 0),
        (0, 1),
        (1, 2),
    ]
    back = read_text(out.getvalue()).topics[0]
    assert [m.spans for m in back.mentions] == [m.spans for m in topic.mentions]
    assert [m.cluster for m in back.mentions] == [m.cluster for m in topic.mentions]
