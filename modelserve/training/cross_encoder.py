"""Fine-tune SciCo's unified cross-encoder: gold topics in, a `cross-encoder` model folder out.

As SciCo's train.py with configs/multiclass.yaml (appendix B.2): any Hugging Face checkpoint
with a 4-class head on its first token, `<m>` and `</m>` added as special tokens; every
ordered mention pair (i, j), i != j, of every training topic, labelled 1 when the mentions
share a cluster, 2 when i's cluster is a parent of j's, 3 when a child, else 0
(CrossEncoderDataset.get_topic_pairs); the pair encoded as SciCo encodes it
(scico_pairs.py); cross-entropy, AdamW, 1 epoch, lr 1e-5, batch 4, gradient accumulation 4,
gradient clipping 1 (each settable). Then, as B.2, the clustering and hierarchy thresholds
are tuned on the dev topics for the best path ratio (ties: the better CoNLL F1), decoding as
the backend does. The folder holds the model, its tokenizer and scico_thresholds.json, which
the backend reads. CUDA when present. Pure: no Django.

Two profiles (modelserve/training/profiles.py): `default` keeps the product's earlier choices
(16 pairs per optimiser step, AutoModelForSequenceClassification's head, so the folder is an
ordinary checkpoint: for BERT-like models the head reads the pooled first token, for
RoBERTa/Longformer a small MLP over it; a finer threshold grid; fp16 inference on a GPU);
`scico-b2` is SciCo's recipe exactly (128 pairs per step by gradient accumulation, SciCo's
single linear layer, its grid and criterion, fp32 inference).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from corefscore.corpus import TopicData
from corefscore.scoring.api import score_scico
from modelserve.backends.cross_encoder import THRESHOLDS_FILE, CrossEncoderBackend
from modelserve.backends.scico_checkpoints import (
    LABELS,
    ScicoCrossEncoder,
    encoder_without_pooler,
    scico_tokenizer,
)
from modelserve.backends.scico_decoding import CHILD, COREF, PARENT, UNRELATED, decode
from modelserve.backends.scico_pairs import END, START, pair_text
from modelserve.devices import pick_device
from modelserve.training.profiles import (
    AGG_GRID,
    HYPERNYM_GRID,
    Hyperparameters,
    profile_hyperparameters,
)

__all__ = ["AGG_GRID", "HYPERNYM_GRID", "Hyperparameters", "train_cross_encoder"]

Log = Callable[[str], None]
Progress = Callable[[float, str], None]


def pair_labels(topic: TopicData) -> tuple[list[tuple[int, int]], list[int]]:
    """Every ordered pair (i, j), i != j, and its SciCo class, i-major."""
    relations = set(topic.relations)
    clusters = [m.cluster for m in topic.mentions]
    pairs, labels = [], []
    n = len(topic.mentions)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            a, b = clusters[i], clusters[j]
            if a is not None and a == b:
                label = COREF
            elif (a, b) in relations:
                label = PARENT
            elif (b, a) in relations:
                label = CHILD
            else:
                label = UNRELATED
            pairs.append((i, j))
            labels.append(label)
    return pairs, labels


def load_for_training(
    encoder: str | Path, device: torch.device, head: str = "auto"
) -> tuple[Any, Any]:
    """The checkpoint with a fresh 4-class head and the mention markers in its vocabulary:
    `linear`, SciCo's one linear layer (its tokenizer grown as SciCo grows it); `auto`, the
    family's sequence-classification head."""
    if head == "linear":
        tokenizer = scico_tokenizer(encoder)
        linear = ScicoCrossEncoder(encoder_without_pooler(encoder))
        linear.resize_token_embeddings(len(tokenizer))
        return tokenizer, linear.to(device)
    tokenizer = AutoTokenizer.from_pretrained(str(encoder), local_files_only=True)
    tokenizer.add_special_tokens({"additional_special_tokens": [START, END]})
    model = AutoModelForSequenceClassification.from_pretrained(
        str(encoder),
        local_files_only=True,
        num_labels=4,
        id2label=dict(LABELS),
        label2id={v: k for k, v in LABELS.items()},
        ignore_mismatched_sizes=True,
    )
    model.resize_token_embeddings(len(tokenizer))
    return tokenizer, model.to(device)


def train_cross_encoder(
    train: list[TopicData],
    dev: list[TopicData],
    *,
    encoder: str | Path,
    out: str | Path,
    hyperparameters: Hyperparameters | None = None,
    device: str = "auto",
    log: Log = print,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Fine-tune on `train`, tune the thresholds on `dev`, save to `out`; returns the summary
    written to scico_thresholds.json."""
    hp = hyperparameters or Hyperparameters()
    random.seed(hp.seed)
    np.random.seed(hp.seed)
    torch.manual_seed(hp.seed)
    chosen = pick_device(device)
    tokenizer, model = load_for_training(encoder, chosen, hp.head)
    backend = CrossEncoderBackend(
        {
            "model_path": str(encoder),
            "device": str(chosen),
            "context": hp.context,
            "max_length": hp.max_length,
            "batch_size": 32,
        },
        loaded=(tokenizer, model),
    )
    examples: list[tuple[str, int]] = []
    for topic in train:
        texts = backend.contexts(topic)
        pairs, labels = pair_labels(topic)
        examples += [
            (pair_text(texts[i], texts[j], backend.separator), label)
            for (i, j), label in zip(pairs, labels, strict=True)
        ]
    if not examples:
        raise ValueError("the training topics hold no mention pair")
    log(
        f"{len(examples)} mention pairs from {len(train)} topics, on {chosen}; "
        f"{hp.effective_batch} pairs per optimiser step ({hp.profile} profile)"
    )
    optimizer = torch.optim.AdamW(model.parameters(), lr=hp.lr)
    loss_function = torch.nn.CrossEntropyLoss()
    steps = hp.epochs * ((len(examples) + hp.batch_size - 1) // hp.batch_size)
    step = optimiser_steps = 0
    for epoch in range(hp.epochs):
        model.train()
        order = list(range(len(examples)))
        random.Random(hp.seed + epoch).shuffle(order)
        total = 0.0
        optimizer.zero_grad()
        for start in range(0, len(order), hp.batch_size):
            batch = [examples[k] for k in order[start : start + hp.batch_size]]
            inputs = {
                k: v.to(chosen) for k, v in backend.encode([text for text, _ in batch]).items()
            }
            targets = torch.tensor([label for _, label in batch], device=chosen)
            loss = loss_function(model(**inputs).logits, targets)
            (loss / hp.gradient_accumulation).backward()
            total += float(loss.detach())
            step += 1
            if step % hp.gradient_accumulation == 0 or start + hp.batch_size >= len(order):
                torch.nn.utils.clip_grad_norm_(model.parameters(), hp.gradient_clip)
                optimizer.step()
                optimizer.zero_grad()
                optimiser_steps += 1
            if progress is not None:
                progress(0.8 * step / steps, f"epoch {epoch + 1}: {step}/{steps} batches")
        log(f"epoch {epoch + 1}: mean loss {total / max(1, len(order) // hp.batch_size):.4f}")
    model.eval()
    tuned = tune_thresholds(backend, dev, log, hp)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    summary = {
        **tuned,
        "encoder": str(encoder),
        # as JSON reads it back (the grids as lists)
        "hyperparameters": {
            k: list(v) if isinstance(v, tuple) else v for k, v in asdict(hp).items()
        },
        "train_topics": len(train),
        "dev_topics": len(dev),
        "pairs": len(examples),
        "optimiser_steps": optimiser_steps,
        "device": str(chosen),
    }
    (out / THRESHOLDS_FILE).write_text(json.dumps(summary, indent=2) + "\n")
    if progress is not None:
        progress(1.0, "saved")
    log(f"saved to {out}")
    return summary


def tune_thresholds(
    backend: CrossEncoderBackend,
    dev: list[TopicData],
    log: Log,
    hp: Hyperparameters | None = None,
) -> dict[str, Any]:
    """The (agg, hypernym) thresholds the profile's criterion picks on dev (SciCo's defaults
    when there is no dev topic)."""
    hp = hp or Hyperparameters()
    return tune_decoding(
        dev,
        [backend.pair_probabilities(topic) for topic in dev],
        log,
        agg_grid=hp.agg_grid,
        hypernym_grid=hp.hypernym_grid,
        criterion=hp.criterion,
    )


def tune_decoding(
    dev: list[TopicData],
    probabilities: list[Any],
    log: Log,
    *,
    agg_grid: tuple[float, ...] = AGG_GRID,
    hypernym_grid: tuple[float, ...] = HYPERNYM_GRID,
    criterion: str = "path-ratio-then-conll",
) -> dict[str, Any]:
    """SciCo's decoding thresholds for any model's n x n x 4 pair probabilities of the dev
    topics (the cross-encoder's and the `trained` backend's), agg outer and hypernym inner
    over the grids, the first best kept: by micro path ratio then CoNLL F1, or (`scico`, as
    tune_hp_multiclass.py's np.argmax) by micro path ratio alone."""
    from modelserve.decode import with_prediction  # the command line module; no cycle

    if not dev:
        log("no dev topics: SciCo's thresholds kept")
        return {"agg_threshold": 0.6, "hypernym_threshold": 0.4, "dev": None}
    best: tuple[tuple[float, ...], float, float, dict[str, Any]] | None = None
    for agg in agg_grid:
        for hypernym in hypernym_grid:
            predicted = [
                with_prediction(topic, decode(p, agg_threshold=agg, hypernym_threshold=hypernym))
                for topic, p in zip(dev, probabilities, strict=True)
            ]
            scores = score_scico(dev, predicted)
            # (an undefined figure, None, counts 0 in the choice: it gains nothing)
            path_ratio = scores["path_ratio"]["micro"] or 0.0
            conll = scores["conll_f1"] or 0.0
            key = (path_ratio,) if criterion == "scico" else (path_ratio, conll)
            if best is None or key > best[0]:
                best = (key, agg, hypernym, scores)
    assert best is not None
    _, agg, hypernym, scores = best
    path, conll = scores["path_ratio"]["micro"] or 0.0, scores["conll_f1"] or 0.0
    log(f"dev: agg {agg}, hypernym {hypernym}: path ratio {path:.4f}, CoNLL F1 {conll:.4f}")
    return {
        "agg_threshold": agg,
        "hypernym_threshold": hypernym,
        "criterion": criterion,
        "dev": {
            "path_ratio": path,
            "conll_f1": conll,
            "hierarchy_f1": scores["hierarchy"]["f1"],
            "hierarchy_50_f1": scores["hierarchy_50"]["f1"],
        },
    }


def train_from_files(
    train_path: Path,
    dev_path: Path | None,
    out: Path,
    *,
    encoder: str | Path,
    hyperparameters: Hyperparameters,
    holdout: float = 0.2,
    device: str = "auto",
    log: Log = print,
) -> dict[str, Any]:
    """Train from a SciCo jsonl file; the dev topics come from `dev_path`, else a seeded
    `holdout` share of the training topics is held out as dev."""
    from corefscore.formats.scico import read_scico_jsonl

    train = read_scico_jsonl(train_path).topics
    if dev_path is not None:
        dev = read_scico_jsonl(dev_path).topics
    else:
        train, dev = held_out(train, holdout, hyperparameters.seed)
        log(f"{len(dev)} of {len(train) + len(dev)} topics held out as dev (no dev file)")
    return train_cross_encoder(
        train,
        dev,
        encoder=encoder,
        out=out,
        hyperparameters=hyperparameters,
        device=device,
        log=log,
    )


def held_out(
    topics: list[TopicData], share: float, seed: int
) -> tuple[list[TopicData], list[TopicData]]:
    """(train, dev): a seeded `share` of the topics as dev (none when there is one topic)."""
    shuffled = list(topics)
    random.Random(seed).shuffle(shuffled)
    cut = round(len(shuffled) * share) if len(shuffled) > 1 else 0
    return shuffled[cut:], shuffled[:cut]


def train_registered(
    topics: list[TopicData],
    out: Path,
    *,
    seed: int,
    holdout_fraction: float,
    epochs: int,
    device: str,
    encoder: str | None,
    log: Log,
    profile: str = "default",
) -> dict[str, Any] | None:
    """The training registry's entry (modelserve.training.registry): the profile's
    hyperparameters with the given epochs and seed, a held-out share of the topics as dev,
    the packaged MiniLM when no encoder is given."""
    from modelserve.encoders import default_encoder_path

    train, dev = held_out(topics, holdout_fraction, seed)
    log(f"{len(dev)} of {len(topics)} topics held out as dev")
    return train_cross_encoder(
        train,
        dev,
        encoder=encoder or default_encoder_path(),
        out=out,
        hyperparameters=profile_hyperparameters(profile, epochs=epochs, seed=seed),
        device=device,
        log=log,
    )
