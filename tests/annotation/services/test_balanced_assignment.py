"""Each overlap topic to k annotators, every other topic to one, loads balanced."""

from collections import Counter

import pytest

from annotation.services.assignments import AssignmentRefused, balanced_plan


def plan(topics=10, annotators=4, k=3, overlap=range(4), load=None, already=()):
    return balanced_plan(
        topic_ids=list(range(topics)),
        annotator_ids=[100 + a for a in range(annotators)],
        k=k,
        overlap=set(overlap),
        load=load or {},
        already=set(already),
    )


def test_overlap_topics_get_k_annotators_and_the_others_one():
    per_topic = Counter(topic for topic, _ in plan())

    assert [per_topic[t] for t in range(10)] == [3, 3, 3, 3, 1, 1, 1, 1, 1, 1]


def test_annotator_loads_differ_by_at_most_one():
    loads = Counter(annotator for _, annotator in plan()).values()

    assert max(loads) - min(loads) <= 1


def test_existing_load_is_taken_into_account():
    pairs = plan(topics=2, annotators=2, k=1, overlap=(), load={100: 5})

    assert [annotator for _, annotator in pairs] == [101, 101]


def test_existing_assignments_are_kept_and_completed():
    pairs = plan(topics=1, annotators=3, k=3, overlap=[0], already=[(0, 101)])

    assert sorted(annotator for _, annotator in pairs) == [100, 102]


def test_k_larger_than_the_team_is_refused():
    with pytest.raises(AssignmentRefused):
        plan(annotators=2, k=3)
