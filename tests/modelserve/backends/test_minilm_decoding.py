import numpy as np

from modelserve.backends.decoding import (
    agglomerative_clusters,
    between_clusters,
    cluster_confidences,
    decode_pair_scores,
    greedy_hierarchy,
    member_confidences,
)


def test_greedy_decoding_skips_an_edge_that_would_close_a_cycle():
    scores = np.array(
        [
            [0.0, 0.9, 0.0],  # 0 -> 1
            [0.0, 0.0, 0.8],  # 1 -> 2
            [0.7, 0.0, 0.0],  # 2 -> 0 would close 0 -> 1 -> 2 -> 0
        ]
    )
    assert greedy_hierarchy(scores, 0.5, single_parent=False) == [(0, 1, 0.9), (1, 2, 0.8)]


def test_greedy_decoding_gives_a_child_one_parent_the_best_one():
    scores = np.array(
        [
            [0.0, 0.0, 0.6],
            [0.0, 0.0, 0.9],
            [0.0, 0.0, 0.0],
        ]
    )
    assert greedy_hierarchy(scores, 0.5) == [(1, 2, 0.9)]
    assert greedy_hierarchy(scores, 0.5, single_parent=False) == [(1, 2, 0.9), (0, 2, 0.6)]


def test_greedy_decoding_stops_below_the_threshold_and_never_adds_self_loops():
    scores = np.array([[0.99, 0.4], [0.3, 0.99]])
    assert greedy_hierarchy(scores, 0.5) == []


def test_average_linkage_merges_groups_whose_mean_similarity_reaches_the_threshold():
    similarity = np.array(
        [
            [1.0, 0.9, 0.2, 0.1],
            [0.9, 1.0, 0.3, 0.2],
            [0.2, 0.3, 1.0, 0.7],
            [0.1, 0.2, 0.7, 1.0],
        ]
    )
    assert agglomerative_clusters(similarity, 0.8) == [[0, 1], [2], [3]]
    assert agglomerative_clusters(similarity, 0.6) == [[0, 1], [2, 3]]
    assert agglomerative_clusters(similarity, 0.1) == [[0, 1, 2, 3]]
    assert agglomerative_clusters(np.ones((1, 1)), 0.5) == [[0]]
    assert agglomerative_clusters(np.ones((0, 0)), 0.5) == []


def test_cluster_confidence_is_the_mean_inner_similarity_or_apartness_for_a_singleton():
    similarity = np.array([[1.0, 0.8, 0.3], [0.8, 1.0, 0.1], [0.3, 0.1, 1.0]])
    assert np.allclose(cluster_confidences(similarity, [[0, 1], [2]]), [0.8, 0.7])


def test_a_member_that_fits_its_cluster_worse_scores_lower():
    similarity = np.array([[1.0, 0.9, 0.5], [0.9, 1.0, 0.3], [0.5, 0.3, 1.0]])
    assert np.allclose(member_confidences(similarity, [[0, 1, 2]]), [[0.7, 0.6, 0.4]])
    assert member_confidences(similarity, [[0, 1], [2]])[1] == [0.5]


def test_cluster_pair_scores_average_the_mention_pair_scores():
    scores = np.arange(16, dtype=float).reshape(4, 4)
    block = between_clusters(scores, [[0, 1], [2, 3]])
    assert np.isclose(block[0, 1], scores[np.ix_([0, 1], [2, 3])].mean())


def test_pair_probabilities_decode_into_clusters_and_a_child_to_parent_edge():
    coref = np.array([[1, 0.9, 0.1], [0.9, 1, 0.1], [0.1, 0.1, 1]])
    child_of = np.zeros((3, 3))
    child_of[2, 0] = child_of[2, 1] = 0.8  # mention 2 is a child of the cluster {0, 1}
    suggestions = decode_pair_scores(
        coref, child_of, cluster_threshold=0.5, hierarchy_threshold=0.4
    )
    assert [c.mentions for c in suggestions.clusters] == [[0, 1], [2]]
    assert np.allclose(suggestions.clusters[0].mention_scores, [0.9, 0.9])
    assert [(e.parent, e.child) for e in suggestions.edges] == [(0, 1)]
    assert np.isclose(suggestions.edges[0].score, 0.8)
