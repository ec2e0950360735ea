"""Stacked chains in WebAnno TSV 3: a span that is a link of two chains is
two mentions on the same span, one in each chain's cluster, and is written back stacked.

Read from a document of our own (fixtures/formats/inception/stacked_chains.tsv: "his" is a
link of the book's chain and of Ben's) and from every stacked case of INCEpTION's suite."""

import pytest

from annotation.domain.invariants import invariant_violations
from annotation.domain.state import AnnotationState, Cluster, Mention
from corefscore.formats import FormatErrors, read, write
from tests.corefscore.formats.test_formats_webanno_tsv import chains, suite
from tests.paths import INCEPTION_SUITE, REPO

OWN = REPO / "fixtures" / "formats" / "inception" / "stacked_chains.tsv"
# Every case of the suite whose name says it stacks, but those refused for their slot
# features (what nothing here carries, stacked or not: test_formats_webanno_tsv.py).
SLOT_CASES = {
    "testMultiTokenStackedSlotFeature",
    "testStackedComplexSlotFeatureWithoutValues",
    "testStackedSimpleSlotFeatureWithoutValues",
}
STACKED_CASES = sorted(
    p.name for p in INCEPTION_SUITE.iterdir() if "tacked" in p.name and p.name not in SLOT_CASES
)


def test_own_document_a_stacked_span_is_one_mention_in_each_chain():
    topic = read("webanno-tsv", OWN).topics[0]
    tokens = topic.documents[0].tokens
    his = [m for m in topic.mentions if tokens[m.spans[0][0]] == "his"]
    assert [m.spans for m in his] == [((8, 8),), ((8, 8),)]
    assert [m.cluster for m in his] == ["2", "3"]
    assert chains(topic) == [
        [("Anna", {"referenceType": "nam", "referenceRelation": "anaphoric"}),
         ("her", {"referenceType": "pro", "referenceRelation": "anaphoric"})],
        [("her book", {"referenceType": "nam"}),
         ("It", {"referenceType": "pro", "referenceRelation": "anaphoric"}),
         ("his", {"referenceType": "pro", "referenceRelation": "anaphoric"})],
        [("Ben", {"referenceType": "nam", "referenceRelation": "anaphoric"}),
         ("his", {"referenceType": "pro", "referenceRelation": "anaphoric"})],
    ]  # fmt: skip


def test_own_document_is_written_back_byte_for_byte(tmp_path):
    topic = read("webanno-tsv", OWN).topics[0]
    assert write("webanno-tsv", [topic], tmp_path) == []
    assert (tmp_path / OWN.name).read_text() == OWN.read_text()


def test_the_suites_stacked_chain_reads_as_two_clusters_sharing_every_span(tmp_path):
    topic = read("webanno-tsv", suite("testStackedChain")).topics[0]
    assert chains(topic) == [
        [("This", {}), ("is", {}), ("a", {})],
        [("a", {}), ("is", {}), ("This", {})],
    ]
    write("webanno-tsv", [topic], tmp_path)
    assert (tmp_path / "reference.tsv").read_text() == suite("testStackedChain").read_text()


@pytest.mark.parametrize("case", STACKED_CASES)
def test_every_stacked_case_of_the_suite_round_trips_text_and_chains(case, tmp_path):
    before = read("webanno-tsv", suite(case)).topics[0]
    write("webanno-tsv", [before], tmp_path)
    after = read("webanno-tsv", tmp_path / "reference.tsv").topics[0]
    text = [d.metadata["inception"]["text"] for d in before.documents]
    assert [d.metadata["inception"]["text"] for d in after.documents] == text
    assert [d.tokens for d in after.documents] == [d.tokens for d in before.documents]
    assert chains(after) == chains(before)
    kept = [(m.spans, m.cluster, m.metadata) for m in before.mentions if m.cluster or m.metadata]
    assert [
        (m.spans, m.cluster, m.metadata) for m in after.mentions if m.cluster or m.metadata
    ] == (kept)


def test_a_span_twice_a_link_of_one_chain_is_still_refused(tmp_path):
    bad = tmp_path / "twice.tsv"
    bad.write_text(
        OWN.read_text().replace("anaphoric->2-3|anaphoric->3-2", "anaphoric->2-3|anaphoric->2-4")
        .replace("pro[2]|pro[3]", "pro[2]|pro[2]")
    )  # fmt: skip
    with pytest.raises(FormatErrors, match="twice a link of the same chain"):
        read("webanno-tsv", bad)


def _state(clusters: dict[int, set[int]]) -> AnnotationState:
    mentions = {m: Mention(m, 0, ((3, 3),)) for m in (1, 2)}
    return AnnotationState(
        documents={0: 10},
        mentions=mentions,
        clusters={c: Cluster(c, f"c{c}", members=set(ms)) for c, ms in clusters.items()},
    )


def test_the_domain_holds_two_mentions_on_one_span_only_in_different_clusters():
    assert invariant_violations(_state({10: {1}, 11: {2}})) == []
    assert invariant_violations(_state({10: {1, 2}})) == [
        "2 active mentions share document #0 spans ((3, 3),)"
    ]
    assert invariant_violations(_state({10: {1}})) == [
        "2 active mentions share document #0 spans ((3, 3),)"
    ]
