"""SciCo's baselines as backends: edit-distance (the same clusters as SciCo's
lexical_baseline.py), same-head-lemma (WEC), singleton, and entailment (SciCo 4.1) on top of
any clustering backend."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
import torch
from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

from corefscore.corpus import DocumentData, MentionData, TopicData
from modelserve.backends import get_backend
from modelserve.backends.edit_distance import EditDistanceBackend
from modelserve.backends.entailment import EntailmentBackend, cluster_strings
from modelserve.encoders import default_encoder_path
from tests.modelserve import scico_reference
from tests.modelserve.scico_topics import build_topic

WORDS = [
    "model",
    "models",
    "neural",
    "network",
    "networks",
    "BERT",
    "bert",
    "MT",
    "NMT",
    "translation",
    "machine",
    "language",
    "modeling",
    "of",
    "for",
    "the",
    "-",
    "LSTM",
]


def random_topic(rng: np.random.Generator, n: int) -> TopicData:
    """One document of n random mentions of 1-4 words, from a small vocabulary so that many
    strings are near one another."""
    tokens: list[str] = []
    mentions = []
    for _ in range(n):
        words = [str(w) for w in rng.choice(WORDS, size=int(rng.integers(1, 5)))]
        mentions.append(MentionData(0, ((len(tokens), len(tokens) + len(words) - 1),)))
        tokens += words + ["."]
    return TopicData("t", [DocumentData("d", tokens)], mentions)


def partition(clusters):
    return {frozenset(c) for c in clusters}


def labels_partition(labels):
    return partition([[m for m, x in enumerate(labels) if x == label] for label in set(labels)])


def test_edit_distance_gives_the_clusters_of_scicos_lexical_baseline():
    rng = np.random.default_rng(7)
    backend = EditDistanceBackend()
    merged = 0
    for _ in range(300):
        topic = random_topic(rng, int(rng.integers(1, 25)))
        strings = [
            " ".join(topic.documents[0].tokens[s : e + 1])
            for ((s, e),) in (m.spans for m in topic.mentions)
        ]
        expected = labels_partition(scico_reference.lexical_baseline(strings))
        got = partition(c.mentions for c in backend.suggest(topic).clusters)
        assert got == expected, strings
        merged += len(got) < len(topic.mentions)
    assert merged > 100  # most topics merge something, so the cut matters


def test_edit_distance_through_the_registry_keeps_case_and_has_no_hierarchy():
    topic = build_topic()
    suggestions = get_backend("edit-distance").suggest(topic)
    assert not suggestions.edges
    texts = {tuple(c.mentions) for c in suggestions.clusters}
    # "BLEU" twice: one cluster; "Machine translation" / "machine translation": one edit in 19
    by_text = [
        " ".join(topic.documents[m.document].tokens[m.spans[0][0] : m.spans[0][1] + 1])
        for m in topic.mentions
    ]
    bleu = tuple(i for i, t in enumerate(by_text) if t == "BLEU")
    assert bleu in texts


def test_same_head_lemma_clusters_by_the_head_before_a_preposition_singular():
    document = "CRFs for tagging ; a CRF ; linear-chain CRF models ; the CRF tagger ; analysis"
    tokens = document.split()
    spans = [(0, 2), (5, 5), (7, 9), (12, 13), (15, 15)]
    topic = TopicData("t", [DocumentData("d", tokens)], [MentionData(0, (s,)) for s in spans])
    clusters = [c.mentions for c in get_backend("same-head-lemma").suggest(topic).clusters]
    # heads: CRFs -> crf, CRF -> crf, models -> model, tagger, analysis (not "analysi")
    assert clusters == [[0, 1], [2], [3], [4]]


def test_singleton_puts_every_mention_alone():
    topic = build_topic()
    suggestions = get_backend("singleton").suggest(topic)
    assert [c.mentions for c in suggestions.clusters] == [[m] for m in range(len(topic.mentions))]
    assert not suggestions.edges


# -- entailment ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def nli_model(tmp_path_factory):
    return tiny_nli(tmp_path_factory.mktemp("nli") / "tiny-nli")


def tiny_nli(path):
    """A randomly initialised 2-layer BERT NLI classifier with the packaged MiniLM vocabulary;
    labels in MNLI's order, entailment last."""
    tokenizer = AutoTokenizer.from_pretrained(default_encoder_path(), local_files_only=True)
    torch.manual_seed(3)
    labels = {0: "contradiction", 1: "neutral", 2: "entailment"}
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=37,
        max_position_embeddings=512,
        num_labels=3,
        id2label=labels,
        label2id={v: k for k, v in labels.items()},
    )
    model = BertForSequenceClassification(config)
    with torch.no_grad():  # entailment wins for some pairs and not others
        model.classifier.weight.mul_(8.0)
    tokenizer.save_pretrained(path)
    model.save_pretrained(path)
    return path


def reference_relations(topic, clusters, path, sep):
    """Port of utils/model_utils.py get_hypernym_relations with models/baselines.py
    EntailmentModel.forward (the sampled strings given, as the backend writes them)."""
    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    model = BertForSequenceClassification.from_pretrained(path, local_files_only=True).eval()
    candidates = np.array(cluster_strings(topic, clusters, 10, 0))
    cluster_ids = list(range(len(clusters)))
    ordered = [(a, b) for a, b in product(range(len(candidates)), repeat=2) if a != b]
    first, second = (torch.tensor(x) for x in zip(*ordered, strict=True))
    inputs = np.char.add(np.char.add(candidates[first], sep + sep), candidates[second]).tolist()
    tokens = tokenizer(inputs, padding=True)
    with torch.no_grad():
        logits = model(
            torch.tensor(tokens["input_ids"]), torch.tensor(tokens["attention_mask"])
        ).logits
    probabilities = torch.softmax(logits, dim=1)
    scores, predictions = probabilities[:, -1], torch.argmax(probabilities, dim=1)
    positives = torch.nonzero(predictions == 2).squeeze(-1)
    relations = scico_reference.greedy_relations(
        cluster_ids, scores[positives], first[positives], second[positives]
    )
    return {(p, c) for p, c in relations}, len(positives)


@pytest.mark.parametrize("clusters", ["singleton", "same-head-lemma", "edit-distance"])
def test_entailment_gives_scicos_relations_on_any_clustering(nli_model, clusters):
    topic = build_topic()
    backend = EntailmentBackend(
        # one batch, so that padding is as in the reference, which scores all pairs at once
        {"nli_model": str(nli_model), "clusters": clusters, "device": "cpu", "batch_size": 1000}
    )
    suggestions = backend.suggest(topic)
    expected_clusters = get_backend(clusters).suggest(topic).clusters
    assert [c.mentions for c in suggestions.clusters] == [c.mentions for c in expected_clusters]
    expected, positives = reference_relations(
        topic, [c.mentions for c in suggestions.clusters], nli_model, "[SEP]"
    )
    assert {(e.parent, e.child) for e in suggestions.edges} == expected
    assert positives > 0
    assert expected


def test_entailment_runs_from_the_registry_and_refuses_without_a_model(nli_model):
    backend = get_backend("entailment", {"nli_model": str(nli_model), "device": "cpu"})
    assert backend.suggest(build_topic()).clusters
    with pytest.raises(ValueError, match="needs nli_model"):
        EntailmentBackend({})
