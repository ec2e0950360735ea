"""What annotators write on links and clusters in the exports: brat holds a relation's note
(`#` AnnotatorNotes) and attributes (`A` lines) and reads them back; every format reports
what it cannot hold, with how many were left out."""

import json

import pytest

from corefscore.corpus import ClusterData, DocumentData, LinkData, MentionData, TopicData
from corefscore.formats import FormatErrors, read, write
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
    # XMI writes DKPro Core's fixed coreference types and no relations: it holds none of them
    xmi = write("uima-xmi", [topic], tmp_path / "xmi")
    assert {w.field for w in xmi} >= {
        "link notes",
        "link attributes",
        "cluster notes",
        "cluster attributes",
    }


def chemu_noted_text():
    from tests.corefscore.formats.test_formats_chemu import chemu_line

    notes = [
        {
            "relation": "Coreference",
            "pair": [[[7, 8]], [[0, 1], [4, 5]]],
            "note": "the solution of compound 5",
            "attributes": {"certainty": "low"},
        }
    ]
    return chemu_line(relation_notes=notes) + "\n"


def test_chemu_reads_relation_notes_onto_their_links_and_writes_them_back(tmp_path):
    (tmp_path / "in.jsonlines").write_text(chemu_noted_text())
    topic = read("chemu", tmp_path / "in.jsonlines").topics[0]
    coreference, associated = topic.links
    assert (coreference.note, coreference.attributes) == (
        "the solution of compound 5",
        {"certainty": "low"},
    )
    assert (associated.note, associated.attributes) == ("", {})
    assert "chemu" not in topic.metadata  # the key is modelled, not kept aside

    associated.note = "stirred in it"
    assert write("chemu", [topic], tmp_path / "out.jsonlines") == []
    line = json.loads((tmp_path / "out.jsonlines").read_text())
    assert line["relation_notes"][1] == {
        "relation": "Reaction-associated",
        "pair": [[[7, 8]], [[0, 1]]],
        "note": "stirred in it",
    }
    again = read("chemu", tmp_path / "out.jsonlines").topics[0]
    assert [(link.note, link.attributes) for link in again.links] == [
        ("the solution of compound 5", {"certainty": "low"}),
        ("stirred in it", {}),
    ]


def test_chemu_without_notes_writes_no_notes_key(tmp_path):
    from tests.corefscore.formats.test_formats_chemu import chemu_line

    (tmp_path / "in.jsonlines").write_text(chemu_line() + "\n")
    write("chemu", read("chemu", tmp_path / "in.jsonlines").topics, tmp_path / "out.jsonlines")
    assert (tmp_path / "out.jsonlines").read_text() == chemu_line() + "\n"


def test_a_chemu_note_on_no_link_is_left_out_and_a_malformed_one_is_an_error(tmp_path):
    from tests.corefscore.formats.test_formats_chemu import chemu_line

    stray = [{"relation": "Coreference", "pair": [[[0, 1]], [[7, 8]]], "note": "x"}]
    (tmp_path / "stray.jsonlines").write_text(chemu_line(relation_notes=stray) + "\n")
    report = read("chemu", tmp_path / "stray.jsonlines")
    assert all(not link.note for link in report.topics[0].links)
    assert [w.field for w in report.warnings] == ["relation_notes[0]"]

    (tmp_path / "bad.jsonlines").write_text(chemu_line(relation_notes=[{"note": 3}]) + "\n")
    with pytest.raises(FormatErrors) as raised:
        read("chemu", tmp_path / "bad.jsonlines")
    assert [e.field for e in raised.value.errors] == ["relation_notes[0]"]


def test_scico_reads_cluster_notes_onto_their_clusters_and_writes_them_back(tmp_path):
    from tests.corefscore.formats.test_formats_scico import nmt_line

    notes = [{"cluster": 1, "note": "the short name", "attributes": {"certainty": "high"}}]
    (tmp_path / "in.jsonl").write_text(nmt_line(cluster_notes=notes) + "\n")
    topic = read("scico", tmp_path / "in.jsonl").topics[0]
    assert [(c.key, c.note, c.attributes) for c in topic.clusters] == [
        ("0", "", {}),
        ("1", "the short name", {"certainty": "high"}),
    ]
    assert "extra" not in topic.metadata["scico"]  # modelled, not kept aside

    topic.clusters[0].note = "the task"
    assert write("scico", [topic], tmp_path / "out.jsonl") == []
    line = json.loads((tmp_path / "out.jsonl").read_text())
    assert line["cluster_notes"] == [{"cluster": 0, "note": "the task"}, notes[0]]
    again = read("scico", tmp_path / "out.jsonl").topics[0]
    assert [(c.note, c.attributes) for c in again.clusters] == [
        ("the task", {}),
        ("the short name", {"certainty": "high"}),
    ]


def test_scico_without_notes_writes_no_notes_key_and_bad_entries_are_said(tmp_path):
    from tests.corefscore.formats.test_formats_scico import nmt_line

    (tmp_path / "in.jsonl").write_text(nmt_line() + "\n")
    write("scico", read("scico", tmp_path / "in.jsonl").topics, tmp_path / "out.jsonl")
    assert "cluster_notes" not in json.loads((tmp_path / "out.jsonl").read_text())

    (tmp_path / "stray.jsonl").write_text(nmt_line(cluster_notes=[{"cluster": 7}]) + "\n")
    report = read("scico", tmp_path / "stray.jsonl")
    assert [w.field for w in report.warnings] == ["cluster_notes[0]"]
    (tmp_path / "bad.jsonl").write_text(nmt_line(cluster_notes=[{"cluster": 0, "note": 1}]) + "\n")
    with pytest.raises(FormatErrors) as raised:
        read("scico", tmp_path / "bad.jsonl")
    assert [e.field for e in raised.value.errors] == ["cluster_notes[0]"]
