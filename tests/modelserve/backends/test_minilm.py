import pytest
import torch

from modelserve.backends import get_backend
from modelserve.backends.minilm import MiniLMBackend
from tests.modelserve.scico_topics import build_topic

torch.set_num_threads(min(2, torch.get_num_threads()))


@pytest.fixture(scope="module")
def backend():
    return MiniLMBackend({"device": "cpu"})


@pytest.fixture(scope="module")
def suggestions(backend):
    return backend.suggest(build_topic())


def test_clusters_cover_every_mention_exactly_once(suggestions):
    covered = sorted(m for cluster in suggestions.clusters for m in cluster.mentions)
    assert covered == list(range(len(build_topic().mentions)))
    assert all(0.0 <= c.score <= 1.0 for c in suggestions.clusters)


def test_the_hierarchy_is_acyclic_and_single_parent(suggestions):
    import networkx as nx

    graph = nx.DiGraph([(e.parent, e.child) for e in suggestions.edges])
    assert nx.is_directed_acyclic_graph(graph)
    assert all(graph.in_degree(node) <= 1 for node in graph)
    assert all(
        0 <= e.parent < len(suggestions.clusters) and 0 <= e.child < len(suggestions.clusters)
        for e in suggestions.edges
    )


def test_a_modifier_plus_head_label_becomes_the_child_of_the_head(backend, suggestions):
    topic = build_topic()
    cluster_of = {m: i for i, c in enumerate(suggestions.clusters) for m in c.mentions}
    mt, nmt, ar_nmt = (
        cluster_of[3],
        cluster_of[0],
        cluster_of[10],
    )  # machine translation, NMT, autoregressive NMT
    assert mt != nmt != ar_nmt
    edges = {(e.parent, e.child) for e in suggestions.edges}
    assert (mt, nmt) in edges
    assert (nmt, ar_nmt) in edges
    assert topic.mentions[0].cluster == "nmt"


def test_acronyms_and_repeated_names_are_clustered(suggestions):
    cluster_of = {m: i for i, c in enumerate(suggestions.clusters) for m in c.mentions}
    assert cluster_of[0] == cluster_of[1]  # neural machine translation, NMT
    assert cluster_of[4] == cluster_of[6]  # BLEU, BLEU
    assert cluster_of[3] == cluster_of[5]  # Machine translation, machine translation


def test_unknown_parameters_are_refused():
    with pytest.raises(ValueError, match='The minilm backend has no parameter "treshold"'):
        MiniLMBackend({"treshold": 0.5})


def test_the_registry_builds_a_backend_once_per_parameter_set():
    first = get_backend("minilm", {"device": "cpu", "threshold": 0.7})
    assert get_backend("minilm", {"threshold": 0.7, "device": "cpu"}) is first
    assert get_backend("minilm", {"device": "cpu", "threshold": 0.6}) is not first
    assert first.name == "minilm"


def test_the_registry_names_every_backend_and_refuses_unknown_ones():
    from modelserve.backends import UnknownBackend, available_backends

    known = [
        "chemu",
        "cross-encoder",
        "edit-distance",
        "entailment",
        "minilm",
        "same-head-lemma",
        "singleton",
        "trained",
    ]
    assert available_backends() == known
    with pytest.raises(UnknownBackend, match=f"known: {', '.join(known)}"):
        get_backend("longformer")


def test_importing_the_registry_imports_no_backend_and_no_torch():
    import subprocess
    import sys

    check = (
        "import sys, modelserve.backends; "
        "assert not [m for m in sys.modules if m == 'torch' or "
        "m.startswith('modelserve.backends.') and m not in ('modelserve.backends.base',)], "
        "sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", check], check=True)


def test_an_empty_topic_gives_no_suggestions(backend):
    from corefscore.corpus import TopicData

    result = backend.suggest(TopicData("empty"))
    assert result.clusters == []
    assert result.edges == []
