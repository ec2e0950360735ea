"""UIMA CAS XMI (dkpro-cassis) on INCEpTION's conformance suite: every chain case read from
reference.xmi equals the same case read from reference.tsv; write and read back."""

import shutil

import pytest

from corefscore.formats import FormatErrors, read, write
from tests.corefscore.formats.test_formats_webanno_tsv import chains
from tests.paths import INCEPTION_SUITE

CHAIN_CASES = ("testSimpleChain", "testMultiTokenChain", "testStackedChain", "testSubtokenChain")


def case_file(case: str, name: str):
    path = INCEPTION_SUITE / case / name
    if not path.is_file():
        pytest.fail(f"{path} is missing: the tests read INCEpTION's suite from ../shared")
    return path


def comparable(report):
    """What both files of a case must agree on: text, tokens, sentences, the mentions with
    their chains (layer, place, features), clusters and links; or the errors' messages."""
    if not report.topics:
        return sorted((e.field, e.message) for e in report.errors)
    topic = report.topics[0]
    return (
        [(d.metadata["inception"]["text"], d.tokens, d.sentences) for d in topic.documents],
        [(m.document, m.spans, m.cluster, m.metadata) for m in topic.mentions],
        topic.clusters,
        topic.links,
        chains(topic),
    )


@pytest.mark.parametrize("case", CHAIN_CASES)
def test_every_chain_case_reads_the_same_from_tsv_and_from_xmi(case):
    tsv = read("webanno-tsv", case_file(case, "reference.tsv"), skip_invalid=True)
    xmi = read("uima-xmi", case_file(case, "reference.xmi"), skip_invalid=True)
    assert comparable(xmi) == comparable(tsv)


def test_the_chains_read_from_xmi_follow_first_and_next():
    topic = read("uima-xmi", case_file("testSimpleChain", "reference.xmi")).topics[0]
    assert chains(topic) == [[("This", {}), ("is", {}), ("a", {})]]
    assert topic.mentions[0].metadata["inception"]["chain"]["layer"] == (
        "webanno.custom.SimpleLink"
    )


def test_slot_features_are_refused_in_xmi_as_in_tsv():
    with pytest.raises(FormatErrors, match="slot features cannot be carried"):
        read("uima-xmi", case_file("testSimpleSlotFeature", "reference.xmi"))


def test_not_xmi_is_refused_by_name(tmp_path):
    bad = tmp_path / "bad.xmi"
    bad.write_text("not xml at all")
    with pytest.raises(FormatErrors, match="not a UIMA CAS XMI file"):
        read("uima-xmi", bad)


@pytest.mark.parametrize(
    "case", ["testSimpleChain", "testMultiTokenChain", "testSubMultiTokenSpanWithFeatureValue"]
)
def test_xmi_written_reads_back_with_its_type_system(case, tmp_path):
    before = read("uima-xmi", case_file(case, "reference.xmi")).topics[0]
    assert write("uima-xmi", [before], tmp_path / "out") == []
    assert (tmp_path / "out" / "TypeSystem.xml").is_file()
    after = read("uima-xmi", tmp_path / "out" / "reference.xmi").topics[0]
    assert comparable_topic(after) == comparable_topic(before)
    # And TSV written from it carries the same chains.
    write("webanno-tsv", [after], tmp_path / "tsv")
    again = read("webanno-tsv", tmp_path / "tsv" / "reference.tsv").topics[0]
    assert chains(again) == chains(before)


def comparable_topic(topic):
    return (
        [(d.metadata["inception"]["text"], d.tokens, d.sentences) for d in topic.documents],
        [(m.document, m.spans, m.cluster) for m in topic.mentions],
        chains(topic),
    )


def test_a_type_system_beside_the_file_is_used(tmp_path):
    before = read("uima-xmi", case_file("testSimpleChain", "reference.xmi")).topics[0]
    write("uima-xmi", [before], tmp_path)
    moved = tmp_path / "moved"
    moved.mkdir()
    shutil.copy(tmp_path / "reference.xmi", moved / "doc.xmi")
    shutil.copy(tmp_path / "TypeSystem.xml", moved / "TypeSystem.xml")
    topic = read("uima-xmi-folders", moved).topics[0]
    assert topic.external_id == "moved"
    assert chains(topic) == chains(before)


def test_an_unknown_xml_encoding_is_refused_not_raised(tmp_path):
    bad = tmp_path / "bad.xmi"
    bad.write_text('<?xml version="1.0" encoding="UTF-9"?><xmi:XMI/>')
    with pytest.raises(FormatErrors, match="not a UIMA CAS XMI file"):
        read("uima-xmi", bad)


def test_a_given_type_system_is_used(tmp_path):
    before = read("uima-xmi", case_file("testSimpleChain", "reference.xmi")).topics[0]
    write("uima-xmi", [before], tmp_path)
    elsewhere = tmp_path / "types.xml"
    (tmp_path / "TypeSystem.xml").rename(elsewhere)
    topic = read("uima-xmi", tmp_path / "reference.xmi", typesystem=elsewhere).topics[0]
    assert chains(topic) == chains(before)


def test_a_given_type_system_is_the_one_read(tmp_path):
    # A broken type system given makes the read fail: it is used, not DKPro Core's.
    broken = tmp_path / "broken.xml"
    broken.write_text("<typeSystemDescription>")
    with pytest.raises(FormatErrors, match="not a UIMA CAS XMI file"):
        read("uima-xmi", case_file("testSimpleChain", "reference.xmi"), typesystem=broken)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        # The last token "." (15-16) ending beyond the text: sliced, it was "." still.
        (('begin="15" end="16"', 'begin="15" end="99"'), "Token 55"),
        (
            ('"68" sofa="12" begin="8" end="9"', '"68" sofa="12" begin="8" end="40"'),
            "SimpleLink 68",
        ),
        (('xmi:id="64" sofa="12" begin="0"', 'xmi:id="64" sofa="12" begin="-2"'), "Sentence 64"),
    ],
)
def test_an_annotation_beyond_the_text_is_refused_naming_it(tmp_path, change, where):
    source = case_file("testSimpleChain", "reference.xmi").read_text()
    assert change[0] in source
    broken = tmp_path / "broken.xmi"
    broken.write_text(source.replace(*change))
    with pytest.raises(FormatErrors) as refusal:
        read("uima-xmi", broken)
    (error,) = refusal.value.errors
    assert error.field == where
    assert "is not inside the text (16 characters)" in error.message
