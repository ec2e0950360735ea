"""Properties of the consensus: agreement gives itself back, a majority wins, and neither the
names of clusters nor the order of the annotators changes anything."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudication.domain.consensus import Consensus, Rules, Version, VersionCluster, consensus
from adjudication.domain.consensus_state import seed_effects
from annotation.domain.effects import apply_effects
from annotation.domain.invariants import invariant_violations
from annotation.domain.state import AnnotationState, Mention, Settings

from .strategies import topics, universe, versions_of


def picture_of_version(version: Version) -> dict:
    members = {key: frozenset(c.members & version.mentions) for key, c in version.clusters.items()}
    return {
        "mentions": version.mentions,
        "clusters": {
            (members[key], c.label) for key, c in version.clusters.items() if members[key]
        },
        "edges": {(members[p], members[c]) for p, c in version.edges},
        "links": set(version.links),
    }


def picture_of_consensus(result: Consensus) -> dict:
    members = [frozenset(c.members) for c in result.clusters]
    return {
        "mentions": frozenset(result.mentions),
        "clusters": {(members[i], c.label) for i, c in enumerate(result.clusters)},
        "edges": {(members[p], members[c]) for p, c in result.edges},
        "links": set(result.links),
    }


@settings(deadline=None)  # a shared, busy machine: no per-example deadline
@given(topics(max_annotators=1), st.integers(1, 5))
def test_annotators_who_all_agree_give_back_exactly_their_annotation(topic, count):
    _, (version,) = topic

    result = consensus([version] * count)

    assert picture_of_consensus(result) == picture_of_version(version)


@settings(deadline=None)  # a shared, busy machine: no per-example deadline
@given(st.data(), st.integers(1, 9), st.integers(1, 3))
def test_a_majority_of_identical_annotators_wins(data, size, others):
    mentions = universe(size)
    majority = data.draw(versions_of(mentions))
    rest = [data.draw(versions_of(mentions)) for _ in range(others)]
    count = data.draw(st.integers(others + 1, others + 3))  # strictly more than the rest

    result = consensus([majority] * count + rest)

    assert picture_of_consensus(result) == picture_of_version(majority)


def relabelled(version: Version, names: list[int]) -> Version:
    new = dict(zip(version.clusters, names, strict=True))
    return Version(
        version.mentions,
        {new[key]: cluster for key, cluster in version.clusters.items()},
        frozenset((new[p], new[c]) for p, c in version.edges),
        version.links,
    )


@settings(deadline=None)  # a shared, busy machine: no per-example deadline
@given(topics(min_annotators=2), st.randoms(use_true_random=False))
def test_relabelling_clusters_changes_nothing(topic, random):
    _, versions = topic
    renamed = []
    for version in versions:
        names = random.sample(range(1000, 2000), len(version.clusters))
        renamed.append(relabelled(version, names))

    assert consensus(renamed) == consensus(versions)


@settings(deadline=None)  # a shared, busy machine: no per-example deadline
@given(topics(min_annotators=2), st.randoms(use_true_random=False), st.booleans())
def test_the_order_of_the_annotators_changes_nothing(topic, random, single_parent):
    _, versions = topic
    shuffled = random.sample(versions, len(versions))
    rules = Rules(single_parent=single_parent)

    assert consensus(shuffled, rules=rules) == consensus(versions, rules=rules)


@settings(max_examples=200, deadline=None)
@given(
    topics(min_annotators=2),
    st.booleans(),
    st.booleans(),
    st.sampled_from([0.0, 0.3, 0.5, 0.7]),
)
def test_the_consensus_keeps_every_rule(topic, single_parent, no_duplicate_pairs, threshold):
    mentions, versions = topic
    rules = Rules(single_parent=single_parent, refuse_duplicate_link_pairs=no_duplicate_pairs)
    result = consensus(versions, rules=rules, threshold=threshold)
    state = AnnotationState(
        settings=Settings(single_parent=single_parent, anaphora=True),
        documents={0: 20, 1: 20},
        mentions={i: Mention(i, *key) for i, key in enumerate(mentions)},
    )
    ids = iter(range(100, 1000))

    apply_effects(state, seed_effects(state, result, lambda kind: next(ids)))

    assert invariant_violations(state) == []
    if no_duplicate_pairs:
        pairs = [(link.anaphor, link.antecedent) for link in state.links]
        assert len(pairs) == len(set(pairs))


def test_a_pair_that_exactly_half_put_together_stays_apart():
    a, b = (0, ((0, 0),)), (0, ((1, 1),))
    together = Version(frozenset({a, b}), {1: VersionCluster(frozenset({a, b}))})
    apart = Version(
        frozenset({a, b}), {1: VersionCluster(frozenset({a})), 2: VersionCluster(frozenset({b}))}
    )

    result = consensus([together, apart])

    assert [c.members for c in result.clusters] == [(a,), (b,)]


def test_an_edge_between_clusters_that_most_annotators_drew_slightly_differently_stays():
    m = universe(6)
    top, low = frozenset(m[:3]), frozenset(m[3:])
    exact = Version(
        frozenset(m), {1: VersionCluster(top), 2: VersionCluster(low)}, frozenset({(1, 2)})
    )
    # The second annotator leaves one mention of each cluster alone but keeps the edge.
    loose = Version(
        frozenset(m),
        {
            1: VersionCluster(frozenset(m[:2])),
            2: VersionCluster(frozenset(m[3:5])),
            3: VersionCluster(frozenset({m[2]})),
            4: VersionCluster(frozenset({m[5]})),
        },
        frozenset({(1, 2)}),
    )

    result = consensus([exact, exact, loose])

    assert picture_of_consensus(result)["edges"] == {(top, low)}
    assert list(result.edge_support.values()) == [3]


def test_an_annotator_who_split_the_majoritys_cluster_votes_once_for_its_label():
    # Found by the property above (the first-member labels): the minority's two pieces
    # {m0} and {m2} both named the majority's cluster {m0, m2, m4} and tied its label "a" 2-2.
    m0, m2, m4 = (0, ((0, 0),)), (0, ((2, 2),)), (0, ((4, 4),))
    majority = Version(
        frozenset({m0, m2, m4}),
        {0: VersionCluster(members=frozenset({m0, m2, m4}), label="a", note="")},
        frozenset(),
        frozenset(),
    )
    split = Version(
        frozenset({m0, m2}),
        {
            0: VersionCluster(members=frozenset({m0}), label="", note=""),
            1: VersionCluster(members=frozenset({m2}), label="", note=""),
        },
        frozenset(),
        frozenset(),
    )

    result = consensus([majority, majority, split])

    assert picture_of_consensus(result) == picture_of_version(majority)
