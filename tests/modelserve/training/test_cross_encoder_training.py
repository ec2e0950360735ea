"""Training SciCo's unified cross-encoder on the packaged MiniLM, on the CPU: the labels of
every ordered pair as SciCo's dataset gives them, B.2's hyperparameters as defaults, a model
that learns, thresholds tuned on dev and saved where the backend reads them."""

from __future__ import annotations

import json

import torch

from modelserve.backends.cross_encoder import THRESHOLDS_FILE, CrossEncoderBackend
from modelserve.backends.scico_pairs import pair_text
from modelserve.encoders import default_encoder_path
from modelserve.training.cross_encoder import (
    Hyperparameters,
    load_for_training,
    pair_labels,
    train_cross_encoder,
)
from tests.modelserve.scico_topics import MT_DOCUMENTS, build_topic

torch.set_num_threads(1)  # a shared CPU: more threads only wait on one another


def test_pair_labels_are_scicos_get_topic_pairs():
    topic = build_topic()
    pairs, labels = pair_labels(topic)
    relations = set(topic.relations)
    n = len(topic.mentions)
    assert pairs == [(x, y) for x in range(n) for y in range(n) if x != y]
    for (x, y), label in zip(pairs, labels, strict=True):
        cx, cy = topic.mentions[x].cluster, topic.mentions[y].cluster
        expected = (
            1 if cx == cy else 2 if (cx, cy) in relations else 3 if (cy, cx) in relations else 0
        )
        assert label == expected
    assert set(labels) == {0, 1, 2, 3}


def test_the_defaults_are_b2s():
    hp = Hyperparameters()
    assert (hp.epochs, hp.lr, hp.batch_size, hp.gradient_accumulation, hp.gradient_clip) == (
        1,
        1e-5,
        4,
        4,
        1.0,
    )


def mean_loss(tokenizer, model, topic):
    backend = CrossEncoderBackend(
        {"model_path": default_encoder_path(), "device": "cpu"}, loaded=(tokenizer, model)
    )
    texts = backend.contexts(topic)
    pairs, labels = pair_labels(topic)
    inputs = backend.encode([pair_text(texts[i], texts[j], backend.separator) for i, j in pairs])
    model.eval()
    with torch.no_grad():
        logits = model(**inputs).logits
    return float(torch.nn.functional.cross_entropy(logits, torch.tensor(labels)))


def test_training_learns_and_saves_what_the_backend_loads(tmp_path):
    # 5 mentions, 20 pairs: the CPU runs it within a minute even on a loaded machine
    train = [build_topic(MT_DOCUMENTS[:3], [("mt", "nmt"), ("mt", "smt")], external_id="a")]
    dev = [build_topic(MT_DOCUMENTS[5:8], [("tagging", "crf")], external_id="b")]
    logs: list[str] = []
    progress: list[float] = []
    summary = train_cross_encoder(
        train,
        dev,
        encoder=default_encoder_path(),
        out=tmp_path / "model",
        hyperparameters=Hyperparameters(epochs=3, lr=5e-4, gradient_accumulation=1),
        device="cpu",
        log=logs.append,
        progress=lambda fraction, message: progress.append(fraction),
    )
    torch.manual_seed(0)
    before = mean_loss(*load_for_training(default_encoder_path(), torch.device("cpu")), train[0])
    backend = CrossEncoderBackend({"model_path": str(tmp_path / "model"), "device": "cpu"})
    after = mean_loss(backend.tokenizer, backend.model, train[0])
    assert after < before * 0.8, (before, after)
    saved = json.loads((tmp_path / "model" / THRESHOLDS_FILE).read_text())
    assert saved == summary
    assert saved["dev"] is not None
    assert (backend.agg_threshold, backend.hypernym_threshold) == (
        saved["agg_threshold"],
        saved["hypernym_threshold"],
    )
    assert backend.label_note is None  # the head's classes are named
    suggestions = backend.suggest(dev[0])
    assert sorted(m for c in suggestions.clusters for m in c.mentions) == list(
        range(len(dev[0].mentions))
    )
    assert progress[-1] == 1.0
    assert any("mention pairs" in line for line in logs)
