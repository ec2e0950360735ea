"""Corpus files read and checked before anything is written (pure: no database): each format
gives its documents and mentions with document-level offsets, and every kind of bad input is
reported in the annotator's words, every problem of the file at once."""

from __future__ import annotations

from corpus.reading import check, records
from tests.corpus.files import WORDS, corpus_line, dygiepp_line, scico_words, write_lines


def documents(format, path):
    return [found for _, found in records(format, path)]


def test_our_jsonl_gives_documents_with_their_mentions(tmp_path):
    path = write_lines(tmp_path / "c.jsonl", [corpus_line("a"), corpus_line("b", ())])

    report = check("corpus-jsonl", path)
    first, second = documents("corpus-jsonl", path)

    assert report.ok
    assert (report.documents, report.mentions) == (2, 2)
    assert first.doc_id == "a"
    assert first.tokens[2] == "BERT"
    assert first.sentences == [(0, 8), (8, 14)]
    assert [(m.start, m.end, m.label) for m in first.mentions] == [(2, 2, "Method"), (4, 6, "Task")]
    assert first.surface(first.mentions[1]) == "named entity recognition"
    assert first.metadata == {"year": 2021}
    assert second.mentions == []


def test_dygiepp_predictions_keep_document_offsets_labels_and_scores(tmp_path):
    path = write_lines(tmp_path / "pred.jsonl", [dygiepp_line("P1")])

    (document,) = documents("dygiepp", path)

    assert check("dygiepp", path).ok
    assert [(m.start, m.end, m.label, m.score) for m in document.mentions] == [
        (2, 2, "Method", 0.98),
        (4, 6, "Task", 0.91),
        (9, 10, "Method", 0.87),
        (12, 12, "Task", 0.80),
    ]
    assert document.surface(document.mentions[2]) == "transformer model"
    assert document.metadata == {"dataset": "scierc"}


def test_scico_topics_become_documents_without_their_clusters(tmp_path):
    path = write_lines(tmp_path / "scico.jsonl", [scico_words(7)])

    first, second = documents("scico", path)

    assert (first.doc_id, second.doc_id) == ("7/0", "7/1")
    assert first.tokens == WORDS[0]
    assert first.metadata == {"topic": "7", "doc_id": "10"}
    assert [(m.start, m.end) for m in first.mentions] == [(2, 2)]
    assert [second.surface(m) for m in second.mentions] == ["transformer model", "parsing"]


def test_every_bad_line_is_reported_at_once(tmp_path):
    bad_span = corpus_line("c", [(12, 20, "Method")])
    path = write_lines(
        tmp_path / "bad.jsonl",
        [corpus_line("a"), "{not json", corpus_line("a"), bad_span, {"id": "d", "sentences": []}],
    )

    report = check("corpus-jsonl", path)

    assert not report.ok
    assert report.error_count == 4, report.errors
    assert any("line 2: is not JSON" in e for e in report.errors)
    assert any(
        "line 3: document id 'a' is used twice (first at line 1)" in e for e in report.errors
    )
    assert any(
        "line 4: mention [12, 20] is outside the text: the document has 14 words" in e
        for e in report.errors
    )
    assert any("line 5: sentences must be a non-empty list" in e for e in report.errors)


def test_dygiepp_sentence_level_offsets_are_caught(tmp_path):
    """A file whose offsets count from each sentence (not DyGIE++'s document offsets) puts
    the second sentence's mentions in the first: said so, naming the mention."""
    line = dygiepp_line("P1")
    line["predicted_ner"][1] = [[1, 2, "Method"]]

    report = check("dygiepp", write_lines(tmp_path / "p.jsonl", [line]))

    assert report.errors == [
        (
            "p.jsonl: line 1: mention [1, 2] 'train BERT' is not inside sentence 2 (words 8 to "
            "13): DyGIE++ offsets count from the document's start"
        )
    ]


def test_a_file_of_another_format_is_named_once(tmp_path):
    path = write_lines(tmp_path / "pred.jsonl", [dygiepp_line(f"P{i}") for i in range(50)])

    report = check("corpus-jsonl", path)

    assert report.error_count == 1
    assert "pred.jsonl is not a corpus-jsonl file" in report.errors[0]
    assert "DyGIE++ predictions (dygiepp)" in report.errors[0]
    scico = check("dygiepp", write_lines(tmp_path / "s.jsonl", [scico_words(1)]))
    assert scico.error_count == 1
    assert "is not a dygiepp file" in scico.errors[0]


def test_an_empty_file_and_a_broken_topic_file_are_refused(tmp_path):
    (tmp_path / "empty.jsonl").write_text("\n\n")
    assert check("corpus-jsonl", tmp_path / "empty.jsonl").errors == [
        "empty.jsonl: the file holds no documents"
    ]
    broken = scico_words(1)
    broken["mentions"] = [[0, 5, 99, 0]]
    report = check("scico", write_lines(tmp_path / "s.jsonl", [broken]))
    assert not report.ok
    assert report.documents == 0
    assert any("mentions" in error for error in report.errors), report.errors
