"""The seeded balanced split (pure): sizes, determinism, and the balance it reaches."""

import random

from datasets.splitting import balanced_split, share_deviations, split_sizes


def corpus(n: int, seed: int = 1) -> list[list[float]]:
    """n topics with five skewed link counts each (some types rare, like CONTAINED)."""
    rng = random.Random(seed)
    return [
        [
            rng.randint(0, 6),
            rng.randint(0, 2),
            rng.randint(0, 9),
            rng.randint(0, 14),
            rng.random() < 0.3,
        ]
        for _ in range(n)
    ]


def test_split_sizes_follow_the_ratios_by_largest_remainder():
    assert split_sizes(900, [0.6, 0.15, 0.25]) == [540, 135, 225]
    assert split_sizes(10, [0.6, 0.15, 0.25]) == [6, 2, 2]  # 1.5 and 2.5: a tie, the earlier wins
    assert split_sizes(7, [0.5, 0.5]) == [4, 3]
    assert sum(split_sizes(101, [0.7, 0.1, 0.2])) == 101


def test_the_same_seed_gives_the_same_split_and_another_seed_another():
    weights = corpus(200)

    first = balanced_split(weights, [0.6, 0.15, 0.25], seed=3)
    again = balanced_split(weights, [0.6, 0.15, 0.25], seed=3)
    other = balanced_split(weights, [0.6, 0.15, 0.25], seed=4)

    assert first == again
    assert other.assignment != first.assignment


def test_every_split_gets_its_share_of_topics():
    result = balanced_split(corpus(200), [0.6, 0.15, 0.25], seed=0)

    assert [result.assignment.count(s) for s in range(3)] == [120, 30, 50]


def test_on_300_topics_every_link_type_share_is_within_one_point_of_the_topic_share():
    weights = corpus(300)

    result = balanced_split(weights, [0.6, 0.15, 0.25], seed=0)

    table = share_deviations(weights, result.assignment, 3)
    worst = max(abs(v) for row in table for v in row if v is not None)
    assert round(worst, 6) == result.deviation <= 0.01


def test_the_search_beats_a_plain_shuffle_of_the_same_seed():
    weights = corpus(300)

    plain = balanced_split(weights, [0.6, 0.15, 0.25], seed=0, steps=0)
    searched = balanced_split(weights, [0.6, 0.15, 0.25], seed=0)

    assert searched.deviation < plain.deviation / 3


def test_a_quantity_nobody_has_is_left_out_of_the_deviation():
    weights = [[1.0, 0.0] for _ in range(10)]

    result = balanced_split(weights, [0.5, 0.5], seed=0)

    assert result.deviation == 0.0
    assert share_deviations(weights, result.assignment, 2)[0][1] is None
