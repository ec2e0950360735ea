"""On the demo data: the consensus seed of the "SciCo agreement demo" (the
two demo annotators' submitted files) names every adjudicated cluster after its own members,
once. The walk found "Graph attention networks" on a cluster holding only "attention-based
aggregation", and two clusters called "GraphSAGE" (the queue then offered "GraphSAGE under
GraphSAGE")."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudication.services.adjudications import create_adjudication
from annotation.models import Annotation, Project
from annotation.selectors.state import annotation_state_load
from fixtures.demo.load import DEMO_ANNOTATORS, _agreement
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

DEMO = "SciCo agreement demo"


@pytest.fixture
def demo_topics():
    annotators = [UserFactory(username=name) for name in DEMO_ANNOTATORS]
    _agreement(DEMO, annotators)
    return {topic.external_id: topic for topic in Project.objects.get(name=DEMO).topics.all()}


def seeded_clusters(topic, username: str) -> list[tuple[str, list[str]]]:
    """(label, member texts) of each cluster of a consensus seed of `topic`."""
    assignment = create_adjudication(topic=topic, user=UserFactory(username=username))
    state = annotation_state_load(Annotation.objects.get(assignment=assignment))
    return [
        (
            cluster.label,
            [state.default_label(state.mentions[m]) for m in sorted(cluster.members)],
        )
        for cluster in state.clusters.values()
    ]


def test_the_seed_of_the_graph_topic_labels_attention_aggregation_after_itself(demo_topics):
    clusters = seeded_clusters(demo_topics["9002"], "judge")

    (alone,) = [c for c in clusters if c[1] == ["attention-based aggregation"]]
    assert alone[0] == "attention-based aggregation"
    graphsage = [c for c in clusters if c[0] == "GraphSAGE"]
    assert [members for _, members in graphsage] == [["GraphSAGE"]]


@pytest.mark.parametrize("topic", ["9001", "9002", "9003", "9004", "9005", "9006"])
def test_every_seeded_cluster_of_the_demo_has_its_own_label_naming_a_member(demo_topics, topic):
    clusters = seeded_clusters(demo_topics[topic], f"judge{topic}")

    counts = Counter(label for label, _ in clusters)
    assert [label for label, n in counts.items() if n > 1] == []
    # The demo's annotators kept the default labels (a member's text), so the seed must too.
    assert [(label, members) for label, members in clusters if label not in members] == []
