"""What annotators write on links and clusters in the exports: brat holds a relation's note
(`#` AnnotatorNotes) and attributes (`A` lines) and reads them back; every format reports
what it cannot hold, with how many were left out."""

from corefscore.corpus import ClusterData, DocumentData, LinkData, MentionData, TopicData
from corefscore.formats import read, write
from tests.corefscore.formats.test_formats_brat import TEXT, pair, span_of


def noted_topic(tmp_path):
    ann = (
        f"T1\tMention {span_of('Compound 5')}\tCompound 5\n"
        f"T2\tMention {span_of('The mixture')}\tThe mixture\n"
        "R1\tTRANSFORMED Arg1:T2 Arg2:T1\n"
        "#1\tAnnotatorNotes T1\tthe starting material\n"
        "#2\tAnnotatorNotes R1\tdissolved, not reacted\n"
        "A1\tcertainty R1 low\n"
        "A2\tConfidence T1 High\n"
    )
    return read("brat", pair(tmp_path, ann)).topics[0]


def test_brat_reads_a_relation_s_note_and_attributes_onto_its_link(tmp_path):
    topic = noted_topic(tmp_path)
    (link,) = topic.links
    assert link.note == "dissolved, not reacted"
    assert link.attributes == {"certainty": "low"}
    # the entity's note and attribute stay lines kept as they are
    assert topic.metadata["brat"]["other_lines"] == [
        "#1\tAnnotatorNotes T1\tthe starting material",
        "A2\tConfidence T1 High",
    ]


def test_brat_writes_them_back_and_reads_the_same_topic(tmp_path):
    topic = noted_topic(tmp_path)
    topic.links[0].note = "two\nlines"
    topic.links[0].attributes["source"] = "text"
    warnings = write("brat", [topic], tmp_path / "out")
    ann = (tmp_path / "out" / "doc.ann").read_text()
    assert "#2\tAnnotatorNotes R1\ttwo lines\n" in ann
    assert "A3\tcertainty R1 low\nA4\tsource R1 text\n" in ann
    assert [w.field for w in warnings] == ["links[0].note"]  # the line break, said
    again = read("brat", tmp_path / "out").topics[0]
    assert again.links[0].note == "two lines"
    assert again.links[0].attributes == {"certainty": "low", "source": "text"}


def test_formats_that_cannot_hold_them_say_how_many_they_left_out(tmp_path):
    tokens = TEXT.split()
    topic = TopicData(
        "t1",
        [DocumentData("d0", tokens)],
        [MentionData(0, ((0, 1),), "1"), MentionData(0, ((8, 9),), "1")],
        [ClusterData("1", None, "a cluster note", {"certainty": "high"})],
        links=[LinkData("COREFERENCE", 1, 0, "same", {"certainty": "low", "source": "text"})],
    )
    warnings = write("conll", [topic], tmp_path / "out.conll")
    assert {w.field: w.message for w in warnings} == {
        "link notes": "CoNLL-2012 cannot hold link notes: 1 left out (a project archive "
        "keeps them)",
        "link attributes": "CoNLL-2012 cannot hold link attributes: 2 left out (a project archive "
        "keeps them)",
        "cluster notes": "CoNLL-2012 cannot hold cluster notes: 1 left out (a project archive "
        "keeps them)",
        "cluster attributes": "CoNLL-2012 cannot hold cluster attributes: 1 left out (a project "
        "archive keeps them)",
    }
    brat = write("brat", [topic], tmp_path / "brat")
    assert {w.field for w in brat} >= {"cluster notes", "cluster attributes"}
    assert not {w.field for w in brat} & {"link notes", "link attributes"}
