import json

import networkx as nx
import numpy as np
import pytest
import torch

from modelserve.backends import get_backend
from modelserve.backends.pair_classifier import CHILD, COREF, PARENT, UNRELATED, pair_labels
from modelserve.backends.trained import TrainedBackend
from modelserve.training.suggester import train_suggester
from tests.modelserve.scico_topics import (
    MT_DOCUMENTS,
    MT_RELATIONS,
    SENTIMENT_DOCUMENTS,
    SENTIMENT_RELATIONS,
    build_topic,
)

torch.set_num_threads(min(2, torch.get_num_threads()))

GRID = (0.3, 0.5, 0.7)


def gold_topics():
    return [
        build_topic(MT_DOCUMENTS, MT_RELATIONS, "mt"),
        build_topic(SENTIMENT_DOCUMENTS, SENTIMENT_RELATIONS, "sentiment"),
        build_topic(MT_DOCUMENTS[:5], MT_RELATIONS[:2], "mt-short"),
        build_topic(SENTIMENT_DOCUMENTS[:4], SENTIMENT_RELATIONS[:1], "sentiment-short"),
    ]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("suggester")
    lines: list[str] = []
    result = train_suggester(
        gold_topics(),
        out,
        seed=0,
        holdout_fraction=0.25,
        epochs=8,
        threshold_grid=GRID,
        log=lines.append,
        device="cpu",
    )
    return out, result, lines


def test_training_on_small_gold_topics_saves_weights_and_a_config(trained):
    out, result, _ = trained
    config = json.loads((out / "config.json").read_text())
    assert (out / "pair_classifier.pt").is_file()
    assert config["encoder_path"] is None  # the packaged MiniLM
    assert config["labels"] == ["unrelated", "coref", "parent", "child"]
    assert config["cluster_threshold"] in GRID
    assert config["hierarchy_threshold"] in GRID
    assert len(config["holdout_topics"]) == 1
    assert len(config["train_topics"]) == 3
    assert result["seconds"] < 60


def test_held_out_scores_come_from_the_scorer_and_are_printed(trained):
    _, result, lines = trained
    scores = result["holdout_scores"]
    assert set(scores) == {"conll_f1", "hierarchy_f1", "path_ratio_micro", "path_ratio_macro"}
    assert all(0.0 <= value <= 1.0 for value in scores.values())
    assert any(
        "CoNLL F1" in line and "hierarchy F1" in line and "path ratio" in line for line in lines
    )


def test_the_trained_backend_loads_back_from_disk_and_suggests_a_valid_hierarchy(trained):
    out, result, _ = trained
    backend = TrainedBackend({"model_dir": str(out), "device": "cpu"})
    assert backend.params["cluster_threshold"] == result["cluster_threshold"]
    topic = build_topic(SENTIMENT_DOCUMENTS, SENTIMENT_RELATIONS, "unseen")
    suggestions = backend.suggest(topic)
    assert sorted(m for c in suggestions.clusters for m in c.mentions) == list(
        range(len(topic.mentions))
    )
    graph = nx.DiGraph([(e.parent, e.child) for e in suggestions.edges])
    assert nx.is_directed_acyclic_graph(graph)
    assert all(graph.in_degree(n) <= 1 for n in graph)
    again = get_backend("trained", {"model_dir": str(out), "device": "cpu"})
    assert np.allclose(again.pair_probabilities(topic), backend.pair_probabilities(topic))


def test_one_topic_trains_without_holdout_and_keeps_scico_thresholds(tmp_path):
    result = train_suggester(
        [build_topic()], tmp_path, epochs=1, log=lambda line: None, device="cpu"
    )
    assert result["holdout_topics"] == []
    assert result["holdout_scores"] is None
    assert (result["cluster_threshold"], result["hierarchy_threshold"]) == (0.4, 0.4)


def test_topics_without_gold_clusters_cannot_train(tmp_path):
    topic = build_topic()
    for mention in topic.mentions:
        mention.cluster = None
    with pytest.raises(ValueError, match="no topic"):
        train_suggester([topic], tmp_path, log=lambda line: None)


def test_pair_labels_follow_scico_classes_for_ordered_pairs():
    topic = (
        build_topic()
    )  # mentions: 0 nmt, 1 nmt, 2 smt, 3 mt, ...; relations mt -> nmt, mt -> smt
    labels = pair_labels(topic)
    assert labels[0, 1] == COREF
    assert labels[3, 0] == PARENT
    assert labels[0, 3] == CHILD
    assert labels[0, 2] == UNRELATED
    assert (np.diag(labels) == -1).all()


def test_the_trained_backend_without_a_model_directory_says_how_to_get_one(tmp_path):
    with pytest.raises(ValueError, match="model_dir"):
        TrainedBackend({})
    with pytest.raises(FileNotFoundError, match="train_suggester"):
        TrainedBackend({"model_dir": str(tmp_path)})


def test_the_trained_backend_decodes_as_scico_with_thresholds_tuned_for_that(trained):
    """Its pair model predicts SciCo's four classes, so it decodes as the cross-encoder does
    (SciCo's released decoding, docs/models.md), with thresholds tuned on the held-out topics for
    that decoding; `decoding: legacy` keeps the earlier one."""
    from modelserve.backends.decoding import decode_four_class
    from modelserve.backends.scico_decoding import decode

    out, result, _ = trained
    config = json.loads((out / "config.json").read_text())
    assert config["agg_threshold"] in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)  # the cross-encoder's grid
    assert config["hypernym_threshold"] in (0.3, 0.4, 0.5, 0.6, 0.7)
    topic = build_topic(SENTIMENT_DOCUMENTS, SENTIMENT_RELATIONS, "unseen")
    backend = TrainedBackend({"model_dir": str(out), "device": "cpu"})
    probabilities = backend.pair_probabilities(topic)
    for decoding in ("scico-released", "paper"):
        expected = decode(
            probabilities,
            decoding=decoding,
            agg_threshold=config["agg_threshold"],
            hypernym_threshold=config["hypernym_threshold"],
        )
        got = TrainedBackend({"model_dir": str(out), "device": "cpu", "decoding": decoding})
        suggestions = got.suggest(topic)
        assert [c.mentions for c in suggestions.clusters] == expected.clusters
        assert [(e.parent, e.child) for e in suggestions.edges] == [
            (parent, child) for parent, child, _ in expected.relations
        ]
    legacy = TrainedBackend({"model_dir": str(out), "device": "cpu", "decoding": "legacy"})
    old = decode_four_class(
        probabilities,
        cluster_threshold=result["cluster_threshold"],
        hierarchy_threshold=result["hierarchy_threshold"],
    )
    clusters = [c.mentions for c in legacy.suggest(topic).clusters]
    assert clusters == [c.mentions for c in old.clusters]
    with pytest.raises(ValueError, match="decoding must be one of"):
        TrainedBackend({"model_dir": str(out), "device": "cpu", "decoding": "mean"})
