"""WebAnno TSV 3 on INCEpTION's own conformance suite (../shared/data/inception/tsv3-suite,
Apache-2.0, see its NOTICE): chains, sub-token and stacked annotations, what is refused."""

import pytest

from corefscore.formats import FormatErrors, read, write
from tests.paths import INCEPTION_SUITE

CHAIN_CASES = ("testSimpleChain", "testMultiTokenChain", "testStackedChain")
REFUSED_CHAIN_CASES = {
    "testSubtokenChain": "a zero-width link at character 6",
}
SLOT_CASES = ("testSimpleSlotFeature", "sampleSlotAnnotation1", "testMultiTokenSlotFeature")


def suite(case: str):
    path = INCEPTION_SUITE / case / "reference.tsv"
    if not path.is_file():
        pytest.fail(f"{path} is missing: the tests read INCEpTION's suite from ../shared")
    return path


def readable_cases() -> list[str]:
    cases = sorted(p.name for p in INCEPTION_SUITE.iterdir()) if INCEPTION_SUITE.is_dir() else []
    out = []
    for case in cases:
        try:
            read("webanno-tsv", INCEPTION_SUITE / case / "reference.tsv")
        except FormatErrors:
            continue
        out.append(case)
    return out


def chains(topic) -> list[list[tuple[str, dict]]]:
    """Each cluster's links in chain order: (text, features)."""
    members = topic.cluster_members()
    out = []
    for cluster in topic.clusters:
        links = sorted(
            members[cluster.key],
            key=lambda i: topic.mentions[i].metadata["inception"]["chain"]["link"],
        )
        out.append(
            [
                (
                    " ".join(
                        topic.documents[topic.mentions[i].document].tokens[a]
                        for a, b in topic.mentions[i].spans
                        for a in range(a, b + 1)
                    ),
                    topic.mentions[i].metadata["inception"]["chain"]["features"],
                )
                for i in links
            ]
        )
    return out


def test_a_chain_is_a_cluster_of_its_links_in_order():
    topic = read("webanno-tsv", suite("testSimpleChain")).topics[0]
    assert topic.external_id == "reference"
    assert topic.documents[0].tokens == ["This", "is", "a", "test", "."]
    assert chains(topic) == [[("This", {}), ("is", {}), ("a", {})]]
    layer = topic.mentions[0].metadata["inception"]["chain"]["layer"]
    assert layer == "webanno.custom.SimpleLink"


def test_a_multi_token_link_is_one_mention():
    topic = read("webanno-tsv", suite("testMultiTokenChain")).topics[0]
    assert chains(topic) == [[("This is", {}), ("a test", {})]]


@pytest.mark.parametrize("case", sorted(REFUSED_CHAIN_CASES))
def test_what_a_cluster_cannot_carry_is_refused_by_name(case):
    with pytest.raises(FormatErrors, match=REFUSED_CHAIN_CASES[case]):
        read("webanno-tsv", suite(case))
    # With skip_invalid the file is listed, not read.
    report = read("webanno-tsv", suite(case), skip_invalid=True)
    assert report.topics == []
    assert report.skipped


@pytest.mark.parametrize("case", SLOT_CASES)
def test_slot_features_are_refused_with_a_clear_message(case):
    with pytest.raises(FormatErrors, match="slot features cannot be carried"):
        read("webanno-tsv", suite(case))


def test_sub_token_spans_get_tokens_of_their_own():
    topic = read("webanno-tsv", suite("testSubMultiTokenSpanWithFeatureValue")).topics[0]
    document = topic.documents[0]
    # "aaaaaa" is cut at 3 ("aaa" is annotated), "bbbbbb" at 9, 10 and 11.
    assert document.tokens[:2] == ["aaa", "aaa"]
    assert "".join(document.tokens) == "aaaaaabbbbbbcccccc"
    pieces = document.metadata["inception"]["pieces"]
    found = {
        (pieces[m.spans[0][0]][0], pieces[m.spans[-1][1]][1], s["features"].get("value"))
        for m in topic.mentions
        for s in m.metadata["inception"]["spans"]
    }
    # Rows 1-1.1 (3-6) and 1-2 (7-13) hold 6[5]; 1-1.1 and 1-2.1 (7-10) hold 8[6].
    assert {(3, 13, "6"), (3, 10, "8"), (9, 11, "3")} <= found


def test_span_layers_become_labels_and_token_layers_are_left_out_with_a_warning():
    report = read("webanno-tsv", suite("testTokenAttachedAnnotationsWithValues"))
    assert report.topics[0].mentions == []
    assert any("describe tokens, not mentions" in w.message for w in report.warnings)
    topic = read("webanno-tsv", suite("testMultiTokenStackedSpanWithFeatureValue")).topics[0]
    (mention,) = topic.mentions
    assert [s["features"] for s in mention.metadata["inception"]["spans"]] == [
        {"value": "PERSON"},
        {"value": "LOCATION"},
    ]


def test_a_relation_becomes_a_link_from_dependent_to_governor():
    topic = read("webanno-tsv", suite("testSingleTokenRelationWithFeatureValue")).topics[0]
    (link,) = topic.links
    tokens = topic.documents[0].tokens
    assert link.type == "nsubj"
    assert tokens[topic.mentions[link.anaphor].spans[0][0]] == "."
    assert tokens[topic.mentions[link.antecedent].spans[0][0]] == "This"


@pytest.mark.parametrize("case", CHAIN_CASES)
def test_chain_files_are_written_back_byte_for_byte(case, tmp_path):
    report = read("webanno-tsv", suite(case))
    assert write("webanno-tsv", report.topics, tmp_path) == []
    assert (tmp_path / "reference.tsv").read_text() == suite(case).read_text()


def test_every_readable_case_round_trips_text_tokens_and_chains(tmp_path):
    cases = readable_cases()
    assert len(cases) > 50
    for case in cases:
        before = read("webanno-tsv", suite(case)).topics[0]
        write("webanno-tsv", [before], tmp_path / case)
        after = read("webanno-tsv", tmp_path / case / "reference.tsv").topics[0]
        for old, new in zip(before.documents, after.documents, strict=True):
            assert new.metadata["inception"]["text"] == old.metadata["inception"]["text"], case
            assert (new.tokens, new.sentences) == (old.tokens, old.sentences), case
        assert chains(after) == chains(before), case
        clustered = [m for m in before.mentions if m.cluster or m.metadata.get("inception")]
        assert [m for m in after.mentions if m.cluster or m.metadata] == clustered, case


def test_a_scico_topic_is_written_as_chains_inception_can_read(fixtures_dir, tmp_path):
    topic = read("scico", fixtures_dir / "scico_small.jsonl").topics[0]
    write("webanno-tsv", [topic], tmp_path)
    back = read("webanno-tsv-folders", tmp_path).topics
    assert len(back) == 1
    assert [d.tokens for d in back[0].documents] == [d.tokens for d in topic.documents]
    groups = sorted(
        sorted((m.document, m.spans) for m in topic.mentions if m.cluster == key)
        for key in {m.cluster for m in topic.mentions if m.cluster}
    )
    back_groups = sorted(
        sorted((m.document, m.spans) for m in back[0].mentions if m.cluster == key)
        for key in {m.cluster for m in back[0].mentions if m.cluster}
    )
    # A cluster across documents is one chain per document (INCEpTION's chains are per
    # document): compare the mentions clustered, document by document.
    assert {x for g in back_groups for x in g} == {x for g in groups for x in g}
