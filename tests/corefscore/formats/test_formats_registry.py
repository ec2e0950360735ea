import pytest

from corefscore.formats import READERS, WRITERS, read, write


def test_the_registry_names_every_format():
    tsv = {"webanno-tsv", "webanno-tsv-folders", "uima-xmi", "uima-xmi-folders", "corefud"}
    assert set(READERS) == {"scico", "corefi", "chemu", "brat", "label-studio", *tsv}
    assert set(WRITERS) == {"scico", "corefi", "chemu", "brat", "conll", *tsv}


def test_an_unknown_format_is_refused_with_the_known_ones():
    with pytest.raises(
        ValueError, match="readers: scico, corefi, chemu, brat, corefud, label-studio, webanno-tsv"
    ):
        read("conll", "x.conll")


def test_a_corefi_folder_reads_as_one_topic_per_file(shared_data):
    report = read("corefi", shared_data / "corefi")
    assert len(report.topics) == 12
    assert report.topics[0].external_id == "annotation_example"


def test_several_topics_write_to_a_corefi_folder_and_read_back(fixtures_dir, tmp_path):
    topics = read("scico", fixtures_dir / "scico_small.jsonl").topics
    write("corefi", topics, tmp_path)
    back = read("corefi", tmp_path).topics
    assert sorted(t.external_id for t in back) == ["7", "8", "9"]


def test_a_topic_moves_between_formats_keeping_mentions_and_clusters(fixtures_dir, tmp_path):
    topic = read("scico", fixtures_dir / "scico_small.jsonl").topics[0]
    write("corefi", [topic], tmp_path / "t.json")
    again = read("corefi", tmp_path / "t.json").topics[0]
    write("scico", [again], tmp_path / "t.jsonl")
    final = read("scico", tmp_path / "t.jsonl").topics[0]
    assert [(m.document, m.spans, m.cluster) for m in final.mentions] == [
        (m.document, m.spans, m.cluster) for m in topic.mentions
    ]
    assert [d.tokens for d in final.documents] == [d.tokens for d in topic.documents]
