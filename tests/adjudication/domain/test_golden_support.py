"""The shared support cases (fixtures/golden/twins/support.json), which Vitest runs too
(frontend/tests/workspace/adjudication/support.golden.test.ts): the consensus and the
adjudication workspace count a cluster's and a link's supporters alike."""

from __future__ import annotations

import pytest

from adjudication.domain.consensus import KeyLink, Version, VersionCluster, consensus
from tests.domain.twins import case_id, golden

CASES = golden("support")["cases"]


def key(mention: int):
    """Mention k lies in document 10 at tokens [k, k]."""
    return (10, ((mention, mention),))


def version(data, mentions: int) -> Version:
    rejected = set(data["rejected"])
    return Version(
        mentions=frozenset(key(m) for m in range(1, mentions + 1) if m not in rejected),
        clusters={
            i: VersionCluster(frozenset(key(m) for m in members))
            for i, members in enumerate(data["clusters"])
        },
        links=frozenset(KeyLink(t, key(a), key(b)) for t, a, b in data["links"]),
    )


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case):
    result = consensus([version(v, case["mentions"]) for v in case["versions"]])
    assert [
        {"members": [spans[0][0] for _, spans in c.members], "support": c.support}
        for c in result.clusters
    ] == case["clusters"]
    assert [
        {"link": [link.type, link.anaphor[1][0][0], link.antecedent[1][0][0]], "support": n}
        for link, n in ((link, result.link_support[link]) for link in result.links)
    ] == case["links"]
