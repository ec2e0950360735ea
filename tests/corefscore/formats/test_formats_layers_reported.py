"""Every INCEpTION layer an import does not carry into clusters is reported with counts
(INCEpTION's conformance suite, ../shared/data/inception/tsv3-suite): span annotations that
became mentions outside every cluster, span values kept for the export only, relations that
became links, token layers left out."""

import pytest

from corefscore.formats import FormatErrors, read
from corefscore.formats.cas_model import short
from tests.paths import INCEPTION_SUITE


def warnings_of(case: str, format: str = "webanno-tsv") -> list[str]:
    name = "reference.tsv" if format == "webanno-tsv" else "reference.xmi"
    return [str(w) for w in read(format, INCEPTION_SUITE / case / name).warnings]


def readable(format: str) -> list[str]:
    name = "reference.tsv" if format == "webanno-tsv" else "reference.xmi"
    cases = []
    for case in sorted(p.name for p in INCEPTION_SUITE.iterdir()):
        try:
            read(format, INCEPTION_SUITE / case / name)
        except FormatErrors:
            continue
        cases.append(case)
    return cases


def test_stacked_spans_name_their_layer_count_and_the_mentions_they_became():
    # Ten NE spans, two on each of five tokens: five mentions, none in a cluster.
    assert warnings_of("testTokenBoundedStackedSpanWithFeatureValue") == [
        (
            "reference.tsv: field Span: 10 Span annotation(s) ('NE') on no chain link: imported as "
            "5 mention(s) outside every cluster; their values are kept for the export only, not "
            "shown"
        )
    ]
    assert (
        "2 Span annotation(s) ('LOCATION', 'PERSON') on no chain link: imported as 1 "
        in (warnings_of("testMultiTokenStackedSpanWithFeatureValue")[0])
    )


def test_a_relation_layer_is_reported_as_links_with_the_mentions_its_ends_made():
    assert warnings_of("testSingleTokenRelationWithFeatureValue") == [
        (
            "reference.tsv: field Relation: 1 Relation relation(s) imported as anaphora links of "
            "type nsubj (their ends: 2 mention(s) outside every cluster); a project shows them "
            "with the anaphora scheme"
        )
    ]


def test_token_layers_stay_reported_one_line_each():
    assert sorted(
        w.split(": ")[1] for w in warnings_of("testTokenAttachedAnnotationsWithValues")
    ) == [
        "field Lemma",
        "field MorphologicalFeatures",
        "field POS",
        "field Stem",
    ]


@pytest.mark.parametrize("format", ["webanno-tsv", "uima-xmi"])
def test_every_mention_outside_a_cluster_in_the_suite_is_accounted_for_by_its_layer(format):
    """Over the whole suite: each unclustered mention's layer (a span layer on it, else the
    relation whose end it is) is named in a warning that says it made mentions outside every
    cluster."""
    checked = 0
    for case in readable(format):
        name = "reference.tsv" if format == "webanno-tsv" else "reference.xmi"
        report = read(format, INCEPTION_SUITE / case / name)
        said = [str(w) for w in report.warnings if "outside every cluster" in str(w)]
        for topic in report.topics:
            unclustered = [m for m in topic.mentions if m.cluster is None]
            for mention in unclustered:
                layers = {
                    short(s["layer"])
                    for s in mention.metadata.get("inception", {}).get("spans", [])
                }
                assert any(f"field {layer}:" in w for w in said for layer in layers) or (
                    not layers and any("relation(s)" in w for w in said)
                ), (case, mention)
                checked += 1
    assert checked >= 100  # the suite has well over a hundred such mentions
