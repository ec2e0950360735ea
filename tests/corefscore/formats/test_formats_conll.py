import io

from corefscore.corpus import DocumentData, LinkData, MentionData, TopicData
from corefscore.formats import write
from corefscore.formats.conll import write_conll


def small_topic():
    return TopicData(
        external_id="mt 1",
        documents=[
            DocumentData("p1", ["The", "neural", "model", "works", "."]),
            DocumentData("p2", ["A", "model", "."]),
        ],
        mentions=[
            MentionData(0, ((0, 2),), "5"),
            MentionData(0, ((1, 2),), "5"),
            MentionData(0, ((2, 2),), "7"),
            MentionData(1, ((1, 1),), "5"),
            MentionData(1, ((0, 0), (2, 2)), None),
        ],
    )


def conll(topics, **options):
    out = io.StringIO()
    warnings = write_conll(topics, out, **options)
    return out.getvalue(), warnings


def row(part, number, word, mark):
    return "\t".join(["mt_1", str(part), str(number), word, *["-"] * 7, mark]) + "\n"


def test_a_topic_is_one_document_with_a_block_per_paragraph():
    expected = (
        "#begin document (mt_1); part 000\n"
        + row(0, 0, "The", "(5")
        + row(0, 1, "neural", "(5")
        + row(0, 2, "model", "(7)|5)|5)")
        + row(0, 3, "works", "-")
        + row(0, 4, ".", "-")
        + "\n"
        + row(0, 0, "A", "(8")
        + row(0, 1, "model", "(5)")
        + row(0, 2, ".", "8)")
        + "\n"
        + "#end document\n"
    )
    text, warnings = conll([small_topic()])
    assert text == expected
    assert [w.field for w in warnings] == ["mentions[4]"]
    assert "covering span" in warnings[0].message


def test_singletons_can_be_left_out():
    text, _ = conll([small_topic()], singletons=False)
    assert "(7)" not in text
    assert "(8" not in text
    assert "(5)" in text


def test_documents_can_be_written_as_parts():
    text, _ = conll([small_topic()], parts="documents")
    assert text.count("#begin document (mt_1); part 000\n") == 1
    assert text.count("#begin document (mt_1); part 001\n") == 1
    assert row(1, 1, "model", "(5)") in text


def test_non_integer_cluster_keys_are_numbered_in_order_of_first_mention():
    topic = small_topic()
    for mention, key in zip(topic.mentions, ["b", "b", "a", "b", "c"], strict=True):
        mention.cluster = key
    text, _ = conll([topic])
    assert row(0, 2, "model", "(1)|0)|0)") in text


def test_coreference_link_chains_become_clusters_when_asked():
    topic = TopicData(
        external_id="s1",
        documents=[DocumentData("s1", ["Compound", "5", "gave", "it", "and", "this", "."])],
        mentions=[MentionData(0, ((0, 1),)), MentionData(0, ((3, 3),)), MentionData(0, ((5, 5),))],
        links=[LinkData("COREFERENCE", 1, 0), LinkData("COREFERENCE", 2, 1)],
    )
    text, _ = conll([topic], chains_from_links=True, singletons=False)
    assert [line.split("\t")[-1].strip() for line in text.splitlines()[1:8]] == [
        "(0",
        "0)",
        "-",
        "(0)",
        "-",
        "(0)",
        "-",
    ]


def test_the_registry_writes_conll_to_a_path(tmp_path):
    path = tmp_path / "key.conll"
    write("conll", [small_topic()], path)
    assert path.read_text().startswith("#begin document (mt_1); part 000\n")
