"""Mention detection: exact and relaxed (overlap, maximum matching), singletons included."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from corefscore.metrics.mention_detection import mention_detection_counts, mentions_overlap

from .reference_scorers import coval_evaluate, scipy_matching_size, spans_overlap
from .strategies import mention_lists

SETTINGS = settings(max_examples=300, deadline=None)


@SETTINGS
@given(key=mention_lists(), response=mention_lists())
def test_relaxed_true_positives_are_a_maximum_matching_of_overlapping_mentions(key, response):
    key_distinct, response_distinct = list(dict.fromkeys(key)), list(dict.fromkeys(response))
    edges = [
        (i, j)
        for i, a in enumerate(key_distinct)
        for j, b in enumerate(response_distinct)
        if spans_overlap(a, b)
    ]
    counts = mention_detection_counts(key, response, relaxed=True)
    assert counts.r_num == scipy_matching_size(edges, len(key_distinct), len(response_distinct))
    assert (counts.r_den, counts.p_den) == (len(key_distinct), len(response_distinct))


@SETTINGS
@given(key=mention_lists(), response=mention_lists())
def test_exact_counts_identical_mentions_once_each(key, response):
    counts = mention_detection_counts(key, response)
    assert counts.r_num == len(set(key) & set(response))


@SETTINGS
@given(key=mention_lists(), response=mention_lists())
def test_f1_is_symmetric_and_relaxed_is_never_below_exact(key, response):
    for relaxed in (False, True):
        assert (
            mention_detection_counts(key, response, relaxed=relaxed).f1
            == mention_detection_counts(response, key, relaxed=relaxed).f1
        )
    assert (
        mention_detection_counts(key, response, relaxed=True).r_num
        >= mention_detection_counts(key, response).r_num
    )


def test_discontinuous_mentions_overlap_through_any_of_their_spans():
    discontinuous = (0, ((2, 3), (7, 8)))
    assert mentions_overlap(discontinuous, (0, ((8, 9),)))
    assert not mentions_overlap(discontinuous, (0, ((4, 6),)))
    assert not mentions_overlap(discontinuous, (1, ((2, 3),)))


def test_relaxed_matching_is_one_to_one():
    # one long response mention overlaps two key mentions: it can only count once
    counts = mention_detection_counts(
        [(0, ((0, 1),)), (0, ((3, 4),))], [(0, ((0, 4),))], relaxed=True
    )
    assert (counts.r_num, counts.r_den, counts.p_den) == (1, 2, 1)


@SETTINGS
@given(
    key=mention_lists(),
    response=mention_lists(),
    key_clusters=st.integers(1, 4),
    response_clusters=st.integers(1, 4),
    seed=st.integers(0, 2**16),
)
def test_exact_counts_equal_coval_mention_identification_with_singletons(
    key, response, key_clusters, response_clusters, seed
):
    """coval's ``mentions`` metric (keep_singletons, its default) counts the distinct mentions
    of each side's clusters; however the mentions are clustered, exact detection equals it."""
    rng = random.Random(seed)

    def clustered(mentions, clusters):
        groups: dict[int, list] = {}
        for mention in dict.fromkeys(mentions):
            groups.setdefault(rng.randrange(clusters), []).append(mention)
        return list(groups.values())

    documents = [(clustered(key, key_clusters), clustered(response, response_clusters))]
    p_num, p_den, r_num, r_den = coval_evaluate(documents, keep_singletons=True)["mentions"]
    counts = mention_detection_counts(key, response)
    assert (counts.p_num, counts.p_den, counts.r_num, counts.r_den) == (p_num, p_den, r_num, r_den)
