"""SciCo's own PyTorch Lightning checkpoint loads by path (docs/models.md): a .ckpt built here in
that format from a tiny random model (its state_dict keys as SciCo's MulticlassCrossEncoder
names them, `model.*` and `linear.*`) gives, through the cross-encoder backend, the pair
probabilities SciCo's released module gives on the same pairs, in float32."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from modelserve.backends.cross_encoder import CrossEncoderBackend
from modelserve.backends.scico_checkpoints import ScicoCrossEncoder
from modelserve.backends.scico_pairs import pair_text
from tests.modelserve.scico_lightning import lightning_checkpoint, tiny_encoder
from tests.modelserve.scico_topics import MT_DOCUMENTS, build_topic

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scico")
    base = tiny_encoder(folder / "base")
    checkpoint = folder / "epoch=0-step=1250.ckpt"
    # the head is calibrated on the topic's sentences as pairs
    sentences = [sentence for sentence, _ in MT_DOCUMENTS[:4]]
    pairs = [f"{a} [SEP] {b}" for a in sentences for b in sentences]
    module = lightning_checkpoint(base, checkpoint, calibration=pairs)
    return base, checkpoint, module


def test_scicos_lightning_checkpoint_scores_pairs_as_scicos_module(released):
    base, checkpoint, module = released
    topic = build_topic(MT_DOCUMENTS[:4], [("mt", "nmt")])

    backend = CrossEncoderBackend(
        {"model_path": str(checkpoint), "base_model": str(base), "device": "cpu"}
    )
    probabilities = backend.pair_probabilities(topic)

    assert isinstance(backend.model, ScicoCrossEncoder)
    assert backend.precision == "fp32"  # SciCo's, for its own checkpoint
    assert backend.label_note is None  # SciCo's class order, named
    texts = backend.contexts(topic)
    n = len(texts)
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    expected = module.predict([pair_text(texts[i], texts[j], backend.separator) for i, j in pairs])
    got = np.array([probabilities[i, j] for i, j in pairs])
    np.testing.assert_allclose(got, expected.numpy(), atol=1e-5)
    assert len(set(got.argmax(axis=1))) > 1  # the head tells classes apart: not a vacuous match
    assert backend.suggest(topic).clusters


def test_the_base_model_defaults_to_the_folder_holding_the_checkpoint(released):
    base = released[0]
    checkpoint = base / "scico.ckpt"
    lightning_checkpoint(base, checkpoint, seed=5)

    backend = CrossEncoderBackend({"model_path": str(checkpoint), "device": "cpu"})

    assert backend.model.linear.weight.shape == (4, 32)


def test_a_checkpoint_without_its_encoder_or_of_another_model_is_refused_in_words(
    released, tmp_path
):
    _, checkpoint, _ = released
    with pytest.raises(ValueError, match="set base_model to the encoder it was fine-tuned from"):
        CrossEncoderBackend({"model_path": str(checkpoint), "device": "cpu"})  # no config there
    other = tmp_path / "other.ckpt"
    torch.save({"state_dict": {"classifier.weight": torch.zeros(2, 2)}}, other)
    with pytest.raises(ValueError, match="is not SciCo's unified model"):
        CrossEncoderBackend(
            {"model_path": str(other), "base_model": str(released[0]), "device": "cpu"}
        )
