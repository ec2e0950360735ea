"""The `scico-b2` training profile (docs/models.md): SciCo's recipe exactly. 128 pairs per
optimiser step by gradient accumulation on one device (the paper's 8 GPUs x 4 x 4), SciCo's
single linear head, its threshold grid and criterion (tune_hp_multiclass.py, ported here), and
fp32 inference. Tiny random encoders on a few pairs, on the CPU: seconds, never a real model."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
import torch

from modelserve.backends.cross_encoder import THRESHOLDS_FILE, CrossEncoderBackend
from modelserve.backends.scico_checkpoints import LINEAR_FILE, ScicoCrossEncoder
from modelserve.training.cross_encoder import train_cross_encoder, tune_decoding
from modelserve.training.profiles import PROFILES, SCICO_GRID, profile_hyperparameters
from tests.corefscore.metrics.reference_scorers import scico_path_topic
from tests.modelserve import scico_reference
from tests.modelserve.scico_lightning import tiny_encoder
from tests.modelserve.scico_topics import (
    MT_DOCUMENTS,
    SENTIMENT_DOCUMENTS,
    SENTIMENT_RELATIONS,
    build_topic,
)

torch.set_num_threads(1)  # a shared CPU: more threads only wait on one another
MT = [("mt", "nmt"), ("mt", "smt"), ("tagging", "crf")]


@pytest.fixture(scope="module")
def encoder(tmp_path_factory):
    return tiny_encoder(tmp_path_factory.mktemp("tiny") / "encoder")


def train_128_pairs():
    """Two topics of 8 and 9 mentions: 56 + 72 = 128 ordered pairs, one scico-b2 step."""
    return [
        build_topic(MT_DOCUMENTS[1:6], MT, external_id="eight"),
        build_topic(SENTIMENT_DOCUMENTS, SENTIMENT_RELATIONS, external_id="nine"),
    ]


def dev_topics():
    return [build_topic(MT_DOCUMENTS[:4], [("mt", "nmt")], external_id="dev")]


def test_the_profile_is_b2s_recipe_and_the_default_is_unchanged():
    b2, default = PROFILES["scico-b2"], PROFILES["default"]

    assert b2.effective_batch == 128 == 8 * 4 * 4  # configs/multiclass.yaml on 8 GPUs
    assert (b2.batch_size, b2.gradient_accumulation) == (4, 32)
    assert (b2.epochs, b2.lr, b2.gradient_clip) == (1, 1e-5, 1.0)
    assert b2.head == "linear"
    assert b2.agg_grid == b2.hypernym_grid == SCICO_GRID
    np.testing.assert_allclose(SCICO_GRID, np.arange(0.4, 0.61, 0.1))  # tune_hp_multiclass.py
    assert (b2.criterion, b2.precision) == ("scico", "fp32")
    assert (default.effective_batch, default.head, default.precision) == (16, "auto", "fp16")


def test_scico_b2_takes_one_optimiser_step_per_128_pairs_with_one_linear_head(encoder, tmp_path):
    summary = train_cross_encoder(
        train_128_pairs(),
        dev_topics(),
        encoder=encoder,
        out=tmp_path / "b2",
        hyperparameters=profile_hyperparameters("scico-b2"),
        device="cpu",
        log=lambda line: None,
    )
    default = train_cross_encoder(
        train_128_pairs(),
        [],
        encoder=encoder,
        out=tmp_path / "default",
        hyperparameters=profile_hyperparameters("default"),
        device="cpu",
        log=lambda line: None,
    )

    assert (summary["pairs"], summary["optimiser_steps"]) == (128, 1)
    assert (default["pairs"], default["optimiser_steps"]) == (128, 8)
    saved = json.loads((tmp_path / "b2" / THRESHOLDS_FILE).read_text())
    assert saved["hyperparameters"]["profile"] == "scico-b2"
    assert saved["criterion"] == "scico"
    assert saved["agg_threshold"] in SCICO_GRID
    assert saved["hypernym_threshold"] in SCICO_GRID
    assert (tmp_path / "b2" / LINEAR_FILE).is_file()
    backend = CrossEncoderBackend({"model_path": str(tmp_path / "b2"), "device": "cpu"})
    assert isinstance(backend.model, ScicoCrossEncoder)
    heads = [name for name, m in backend.model.named_modules() if isinstance(m, torch.nn.Linear)]
    assert "linear" in heads
    assert not [h for h in heads if not h.startswith(("model.", "linear"))]
    assert backend.model.linear.in_features == 32
    assert backend.model.linear.out_features == 4
    assert backend.precision == "fp32"
    assert (
        CrossEncoderBackend({"model_path": str(tmp_path / "default"), "device": "cpu"}).precision
        == "fp16"
    )  # on a GPU; the default profile's models keep half precision
    assert (
        CrossEncoderBackend(
            {"model_path": str(tmp_path / "b2"), "device": "cpu", "precision": "fp16"}
        ).precision
        == "fp16"
    )  # an explicit parameter wins
    assert sorted(m for c in backend.suggest(dev_topics()[0]).clusters for m in c.mentions) == (
        list(range(len(dev_topics()[0].mentions)))
    )


def test_accumulating_32_batches_of_4_is_one_batch_of_128(encoder, tmp_path):
    """The same step as one batch of 128 pairs: the loss of each batch of 4 divided by 32,
    as SciCo's Trainer (accumulate_grad_batches) divides it."""
    b2 = replace(profile_hyperparameters("scico-b2"), lr=1e-3)
    whole = replace(b2, batch_size=128, gradient_accumulation=1)
    for name, hp in (("accumulated", b2), ("whole", whole)):
        train_cross_encoder(
            train_128_pairs(), [], encoder=encoder, out=tmp_path / name,
            hyperparameters=hp, device="cpu", log=lambda line: None,
        )  # fmt: skip

    # both start from the same seed and encoder
    a = torch.load(tmp_path / "accumulated" / LINEAR_FILE, weights_only=True)
    b = torch.load(tmp_path / "whole" / LINEAR_FILE, weights_only=True)
    # AdamW's first step moves each weight by about lr: equal steps agree far closer than that
    for key in a:
        assert torch.allclose(a[key], b[key], atol=1e-6), key


def reference_tuning(dev, scores):
    """tune_hp_multiclass.py: every (coref, hypernym) of np.arange(0.4, 0.61, 0.1),
    MulticlassInference (ported), ShortestPath's micro average (ported), np.argmax."""
    coref_threshold = np.arange(0.4, 0.61, 0.1)
    hypernym_threshold = np.arange(0.4, 0.61, 0.1)
    pairs = [(x, y) for x in coref_threshold for y in hypernym_threshold]
    results = []
    for coref, hypernym in pairs:
        counts = []
        for topic, score in zip(dev, scores, strict=True):
            labels, relations = scico_reference.multiclass_inference(
                len(topic.mentions), score, coref, hypernym
            )
            gold = {
                "mentions": [[0, 0, 0, m.cluster] for m in topic.mentions],
                "relations": [list(r) for r in topic.relations],
            }
            system = {"mentions": [[0, 0, 0, label] for label in labels], "relations": relations}
            counts.append(scico_path_topic(gold, system))
        results.append(sum(n for n, _ in counts) / sum(d for _, d in counts))
    best = int(np.argmax(results))
    return pairs[best], results[best]


def test_scicos_grid_and_criterion_pick_what_tune_hp_multiclass_picks():
    dev = [
        build_topic(MT_DOCUMENTS, [("mt", "nmt"), ("mt", "smt"), ("nmt", "ar-nmt")], "d1"),
        build_topic(SENTIMENT_DOCUMENTS, SENTIMENT_RELATIONS, "d2"),
    ]
    rng = np.random.default_rng(7)
    seen = set()
    for _ in range(12):
        probabilities, scores = [], []
        for topic in dev:
            n = len(topic.mentions)
            logits = rng.normal(size=(n, n, 4)) * rng.uniform(0.5, 4)
            p = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
            p = p.astype(np.float32)
            for i in range(n):
                p[i, i] = 0
            probabilities.append(p)
            order = [(i, j) for i in range(n) for j in range(n) if i != j]
            scores.append(torch.tensor(np.array([p[i, j] for i, j in order])))

        ours = tune_decoding(
            dev, probabilities, lambda line: None,
            agg_grid=SCICO_GRID, hypernym_grid=SCICO_GRID, criterion="scico",
        )  # fmt: skip
        (agg, hypernym), path_ratio = reference_tuning(dev, scores)

        assert (ours["agg_threshold"], ours["hypernym_threshold"]) == pytest.approx((agg, hypernym))
        assert ours["dev"]["path_ratio"] == pytest.approx(path_ratio)
        seen.add((ours["agg_threshold"], ours["hypernym_threshold"]))
    assert len(seen) > 1  # the draws exercise the choice, not one corner of the grid


def test_the_command_line_trains_by_the_profile(encoder, tmp_path):
    from corefscore.formats.scico import write_scico_jsonl
    from modelserve.train import main

    write_scico_jsonl(train_128_pairs(), tmp_path / "train.jsonl")
    write_scico_jsonl(dev_topics(), tmp_path / "dev.jsonl")

    code = main(
        [
            "--backend", "cross-encoder", str(tmp_path / "train.jsonl"),
            "--dev", str(tmp_path / "dev.jsonl"), "--out", str(tmp_path / "cli"),
            "--encoder", str(encoder), "--device", "cpu", "--profile", "scico-b2",
            "--lr", "2e-5",
        ]
    )  # fmt: skip

    assert code == 0
    saved = json.loads((tmp_path / "cli" / THRESHOLDS_FILE).read_text())
    hp = saved["hyperparameters"]
    assert (hp["profile"], hp["gradient_accumulation"], hp["lr"]) == ("scico-b2", 32, 2e-5)
    assert saved["optimiser_steps"] == 1
