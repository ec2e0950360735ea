"""One process's cached encoder serves several threads at once: a model
worker trains the mention tagger in a thread (frozen encoder vectors, sub-words counted without
padding) while its suggestion runs embed mentions (padded batches) with the same tokenizer."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
import torch

from modelserve.backends.mention_features import WordEncoder
from modelserve.encoders import MentionEncoder
from tests.modelserve.scico_topics import build_topic

torch.set_num_threads(min(2, torch.get_num_threads()))

SECONDS = 3.0  # without the lock the first failure came within 0.03 s


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")


def test_a_run_embedding_beside_a_training_counting_sub_words_never_fails():
    topic = build_topic()
    runs = MentionEncoder(device="cpu", context="sentence")
    training = WordEncoder(device="cpu")
    assert training.encoder is runs.encoder  # the one cached tokenizer and model
    expected = runs.embed(topic)
    documents = [document.tokens for document in topic.documents]
    failures: list[str] = []
    rounds = {"run": 0, "training": 0}
    deadline = time.monotonic() + SECONDS

    def repeat(name, work):
        while time.monotonic() < deadline and not failures:
            try:
                work()
            except Exception as error:  # noqa: BLE001 - what failed is the finding
                failures.append(f"{name}: {type(error).__name__}: {error}")
            rounds[name] += 1

    def run():
        assert np.allclose(runs.embed(topic), expected, atol=1e-5)

    threads = [
        threading.Thread(target=repeat, args=("run", run)),
        threading.Thread(
            target=repeat, args=("training", lambda: [training.windows(d) for d in documents])
        ),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(SECONDS + 60)

    assert not failures, f"{failures[0]} (after {rounds})"
    assert rounds["run"] > 1
    assert rounds["training"] > 1
