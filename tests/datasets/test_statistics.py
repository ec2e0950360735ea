"""The statistics of small topics, counted by hand (pure: no database)."""

from corefscore.corpus import ClusterData, DocumentData, LinkData, MentionData, TopicData
from datasets.statistics import (
    STATS_KEYS,
    cluster_size_distribution,
    depth_distribution,
    hierarchy_components,
    largest_component_depth,
    stats_rows,
    summarize,
    topic_statistics,
)


def topic(clusters: dict[str, int], relations=(), links=(), spans=None) -> TopicData:
    """A one-document topic: `clusters` maps a key to its number of mentions."""
    mentions = []
    for key, size in clusters.items():
        mentions += [MentionData(0, ((len(mentions), len(mentions)),), key) for _ in range(size)]
    if spans:
        for index, value in spans.items():
            mentions[index].spans = value
    return TopicData(
        "t",
        [DocumentData("d", ["w"] * 50)],
        mentions,
        [ClusterData(key) for key in clusters],
        list(relations),
        [LinkData(*link) for link in links],
    )


def test_a_hierarchy_topic_counts_clusters_singletons_relations_components_and_depth():
    # a -> b -> c is one component of depth 3; d is a second, lone component.
    data = topic({"a": 2, "b": 1, "c": 3, "d": 1}, relations=[("a", "b"), ("b", "c")])

    stats = topic_statistics(data)

    assert (stats.mentions, stats.clusters, stats.singletons) == (7, 4, 2)
    assert (stats.relations, stats.components, stats.max_depth) == (2, 2, 3)
    assert stats.cluster_sizes == (2, 1, 3, 1)


def test_a_lone_cluster_is_one_level_deep_and_a_topic_without_clusters_zero():
    assert topic_statistics(topic({"a": 1})).max_depth == 1
    empty = topic_statistics(TopicData("t", [DocumentData("d", ["w"])]))
    assert (empty.clusters, empty.components, empty.max_depth) == (0, 0, 0)


def test_the_largest_component_gives_the_depth_even_when_a_smaller_one_is_deeper():
    # {a, b, c, d}: a star of depth 2; {e, f, g}: a chain of depth 3.
    edges = [("a", "b"), ("a", "c"), ("a", "d"), ("e", "f"), ("f", "g")]
    components = hierarchy_components(list("abcdefg"), edges)

    assert components == [list("abcd"), list("efg")]
    assert largest_component_depth(components, edges) == 2


def test_a_tie_between_largest_components_goes_to_the_deeper_one_whatever_their_order():
    star_first = [("a", "b"), ("a", "c"), ("d", "e"), ("e", "f")]
    chain_first = [("d", "e"), ("e", "f"), ("a", "b"), ("a", "c")]

    for clusters, edges in ((list("abcdef"), star_first), (list("defabc"), chain_first)):
        assert largest_component_depth(hierarchy_components(clusters, edges), edges) == 3


def test_with_several_parents_the_longest_path_counts_and_edges_are_undirected_for_components():
    # a -> c, b -> c, c -> d, x -> d: one component of five clusters, depth 3 (a, c, d).
    edges = [("a", "c"), ("b", "c"), ("c", "d"), ("x", "d")]
    data = topic({"a": 1, "b": 1, "c": 1, "d": 1, "x": 1}, relations=edges)

    stats = topic_statistics(data)

    assert (stats.components, stats.max_depth, stats.relations) == (1, 3, 4)


def test_a_repeated_edge_counts_once_as_drawn_never_its_closure():
    stats = topic_statistics(topic({"a": 1, "b": 1, "c": 1}, [("a", "b"), ("b", "c"), ("a", "b")]))

    assert stats.relations == 2  # a -> c of the closure is not counted


def test_discontinuous_mentions_are_those_with_more_than_one_span():
    data = topic({"a": 3}, spans={0: ((0, 1), (3, 3)), 2: ((5, 5), (7, 8), (9, 9))})

    assert topic_statistics(data).discontinuous_mentions == 2


def test_links_per_type_are_distinct_surface_links_and_anaphors_distinct_mentions():
    links = [
        ("COREFERENCE", 1, 0),
        ("COREFERENCE", 2, 1),  # 2 -> 0 by transitivity is not counted
        ("COREFERENCE", 1, 0),  # repeated: once
        ("TRANSFORMED", 3, 2),
        ("WORK_UP", 4, 2),
        ("WORK_UP", 4, 3),
    ]
    data = TopicData(
        "t",
        [DocumentData("d", ["w"] * 9)],
        [MentionData(0, ((i, i),)) for i in range(5)],
        links=[LinkData(*link) for link in links],
    )

    stats = topic_statistics(data)

    assert stats.links == {
        "COREFERENCE": 2,
        "TRANSFORMED": 1,
        "REACTION_ASSOCIATED": 0,
        "WORK_UP": 2,
        "CONTAINED": 0,
    }
    assert stats.anaphors == 4  # mentions 1, 2, 3 and 4 (4 is the anaphor of two links)


def test_summarize_adds_topics_up_and_averages_components_and_depth_over_topics():
    one = topic_statistics(topic({"a": 2, "b": 1, "c": 1}, [("a", "b"), ("b", "c")]))  # 1 comp, 3
    two = topic_statistics(topic({"a": 1, "b": 1}))  # 2 components, depth 1

    stats = summarize([one, two])

    assert list(stats) == list(STATS_KEYS)
    assert stats["topics"] == 2
    assert stats["documents"] == 2
    assert stats["tokens"] == 100
    assert (stats["mentions"], stats["clusters"], stats["singletons"]) == (6, 5, 4)
    assert stats["mean_components"] == 1.5
    assert stats["mean_max_depth"] == 2.0
    assert cluster_size_distribution([one, two]) == {1: 4, 2: 1}
    assert depth_distribution([one, two]) == {1: 1, 3: 1}


def test_no_topic_gives_every_key_as_zero():
    stats = summarize([])

    assert stats["topics"] == 0
    assert stats["mean_max_depth"] == 0.0
    assert set(stats["links"].values()) == {0}
    assert stats_rows({"total": stats, "splits": {}})[1][0] == "total"
