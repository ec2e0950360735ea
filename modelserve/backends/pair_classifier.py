"""SciCo's unified mention-pair model (section 4.2) on top of a frozen encoder.

Every ordered pair (m1, m2) of a topic's mentions is one of four classes, in SciCo's order:
0 unrelated, 1 corefer, 2 m1 is a parent of m2, 3 m1 is a child of m2 (relations are direct
parent -> child edges between gold clusters, as in SciCo's training data). Instead of
fine-tuning a Longformer on both contexts, the frozen encoder embeds each mention in its
context once, and a small MLP classifies [a, b, a*b, |a-b|] plus five cheap pair features that
carry over from topic to topic even when little gold exists: the cosine in context, the cosine
of the mention texts alone, the head/modifier cue both ways and the acronym cue (`lexical.py`).
Training is a matter of CPU minutes on a project's own adjudicated topics.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from corefscore.corpus import TopicData
from modelserve.arrays import FloatArray, IntArray
from modelserve.backends.lexical import acronym_pairs, phrase_words, specificity_cue
from modelserve.encoders import MentionEncoder

LABELS = ("unrelated", "coref", "parent", "child")
UNRELATED, COREF, PARENT, CHILD = range(4)
WEIGHTS_FILE = "pair_classifier.pt"
CONFIG_FILE = "config.json"
EXTRA_FEATURES = 5


class PairClassifier(nn.Module):
    def __init__(self, dim: int, hidden: int = 256, dropout: float = 0.2) -> None:
        super().__init__()
        self.dim, self.hidden = dim, hidden
        self.net = nn.Sequential(
            nn.Linear(4 * dim + EXTRA_FEATURES, hidden),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden, len(LABELS)),
        )

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.net(features)
        return logits


def pair_features(a: torch.Tensor, b: torch.Tensor, scalars: torch.Tensor) -> torch.Tensor:
    """Features of ordered pairs: context embeddings a, b (rows L2-normalised) and `scalars`."""
    return torch.cat([a, b, a * b, (a - b).abs(), (a * b).sum(dim=1, keepdim=True), scalars], dim=1)


def pair_scalars(topic: TopicData, phrase_embeddings: FloatArray) -> FloatArray:
    """n x n x 4 per ordered pair (i, j): cosine of the texts alone, "j is a kind of i" and
    "i is a kind of j" (head/modifier cue), one abbreviates the other."""
    texts = []
    for mention in topic.mentions:
        tokens = topic.documents[mention.document].tokens
        texts.append([tokens[w] for s, e in mention.spans for w in range(s, e + 1)])
    phrases = [phrase_words(t) for t in texts]
    n = len(texts)
    out = np.zeros((n, n, 4), dtype=np.float32)
    if n == 0:
        return out
    out[:, :, 0] = phrase_embeddings @ phrase_embeddings.T
    out[:, :, 1] = [[specificity_cue(p, c) for c in phrases] for p in phrases]
    out[:, :, 2] = out[:, :, 1].T
    for i, j in acronym_pairs(texts):
        out[i, j, 3] = out[j, i, 3] = 1.0
    return out


def topic_inputs(
    topic: TopicData, in_context: MentionEncoder, alone: MentionEncoder
) -> tuple[FloatArray, FloatArray]:
    """(context embeddings, pair scalars) of a topic: everything the classifier reads."""
    return in_context.embed(topic), pair_scalars(topic, alone.embed(topic))


def pair_labels(topic: TopicData) -> IntArray:
    """n x n class of each ordered pair of gold-clustered mentions; -1 where unknown or i == j."""
    n = len(topic.mentions)
    clusters = [m.cluster for m in topic.mentions]
    relations = {(str(p), str(c)) for p, c in topic.relations}
    labels = np.full((n, n), -1, dtype=np.int64)
    for i in range(n):
        for j in range(n):
            if i == j or clusters[i] is None or clusters[j] is None:
                continue
            if clusters[i] == clusters[j]:
                labels[i, j] = COREF
            elif (str(clusters[i]), str(clusters[j])) in relations:
                labels[i, j] = PARENT
            elif (str(clusters[j]), str(clusters[i])) in relations:
                labels[i, j] = CHILD
            else:
                labels[i, j] = UNRELATED
    return labels


@torch.inference_mode()
def pair_probabilities(
    model: PairClassifier, embeddings: FloatArray, scalars: FloatArray, *, batch_size: int = 8192
) -> FloatArray:
    """n x n x 4 class probabilities of every ordered pair (the diagonal is left at zero)."""
    n = len(embeddings)
    out = np.zeros((n, n, len(LABELS)), dtype=np.float32)
    if n < 2:
        return out
    device = next(model.parameters()).device
    model.eval()
    emb = torch.as_tensor(embeddings, device=device)
    extra = torch.as_tensor(scalars, device=device)
    first, second = (torch.as_tensor(x, device=device) for x in np.nonzero(~np.eye(n, dtype=bool)))
    for start in range(0, len(first), batch_size):
        f, s = first[start : start + batch_size], second[start : start + batch_size]
        probs = torch.softmax(model(pair_features(emb[f], emb[s], extra[f, s])), dim=1)
        out[f.cpu().numpy(), s.cpu().numpy()] = probs.float().cpu().numpy()
    return out


@dataclass
class PairData:
    """One topic's frozen inputs: embeddings, pair scalars and (for training) labels."""

    topic: TopicData
    embeddings: FloatArray
    scalars: FloatArray
    labels: IntArray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))


def fit(
    data: list[PairData],
    *,
    seed: int = 0,
    epochs: int = 20,
    hidden: int = 256,
    lr: float = 1e-3,
    batch_size: int = 512,
    device: torch.device | None = None,
    log: Callable[[str], None] = print,
) -> PairClassifier:
    """Cross-entropy over all labelled ordered pairs, classes weighted by 1/sqrt(frequency).

    Unrelated pairs outnumber the rest by far in a topic; the square-root weighting keeps the
    rare coref/parent/child classes visible without flattening the probabilities the
    thresholds are later tuned on.
    """
    torch.manual_seed(seed)
    random.seed(seed)
    generator = torch.Generator().manual_seed(seed)
    device = device or torch.device("cpu")
    offsets = np.cumsum([0] + [len(d.embeddings) for d in data])
    embeddings = torch.as_tensor(np.concatenate([d.embeddings for d in data]), device=device)
    firsts, seconds, labels, extras = [], [], [], []
    for offset, item in zip(offsets[:-1], data, strict=True):  # offsets ends with the total
        i, j = np.nonzero(item.labels >= 0)
        firsts.append(i + offset)
        seconds.append(j + offset)
        labels.append(item.labels[i, j])
        extras.append(item.scalars[i, j])
    first, second = (
        torch.as_tensor(np.concatenate(firsts)),
        torch.as_tensor(np.concatenate(seconds)),
    )
    scalars = torch.as_tensor(np.concatenate(extras), dtype=torch.float32)
    target = torch.as_tensor(np.concatenate(labels))
    counts = torch.bincount(target, minlength=len(LABELS)).float()
    weights = torch.where(counts > 0, 1.0 / counts.clamp(min=1).sqrt(), torch.zeros_like(counts))
    weights = weights / weights[counts > 0].mean()
    per_label = ", ".join(f"{n} {int(c)}" for n, c in zip(LABELS, counts, strict=True))
    log(f"pairs: {len(target)} ({per_label})")
    model = PairClassifier(embeddings.shape[1], hidden).to(device)
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss(weight=weights.to(device))
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(target), generator=generator)
        total = 0.0
        for start in range(0, len(order), batch_size):
            batch = order[start : start + batch_size]
            f, s, y = first[batch].to(device), second[batch].to(device), target[batch].to(device)
            features = pair_features(embeddings[f], embeddings[s], scalars[batch].to(device))
            loss = loss_fn(model(features), y)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += loss.item() * len(batch)
        if epoch == 0 or (epoch + 1) % 5 == 0 or epoch + 1 == epochs:
            log(f"epoch {epoch + 1}/{epochs}: loss {total / max(len(target), 1):.4f}")
    model.eval()
    return model


def save(model: PairClassifier, out_dir: str | Path, config: dict[str, Any]) -> Path:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    torch.save({k: v.detach().cpu() for k, v in model.state_dict().items()}, out / WEIGHTS_FILE)
    full = {**config, "labels": list(LABELS), "dim": model.dim, "hidden": model.hidden}
    (out / CONFIG_FILE).write_text(json.dumps(full, indent=2, sort_keys=True) + "\n")
    return out


def load(
    model_dir: str | Path, device: torch.device | None = None
) -> tuple[PairClassifier, dict[str, Any]]:
    directory = Path(model_dir)
    if not (directory / CONFIG_FILE).is_file() or not (directory / WEIGHTS_FILE).is_file():
        raise FileNotFoundError(
            f"no trained suggester in {directory}: expected {CONFIG_FILE} and {WEIGHTS_FILE} "
            "(train one with `manage.py train_suggester --project NAME`)"
        )
    config = json.loads((directory / CONFIG_FILE).read_text())
    if tuple(config.get("labels", ())) != LABELS:
        raise ValueError(f"{directory}: labels {config.get('labels')} are not {list(LABELS)}")
    model = PairClassifier(int(config["dim"]), int(config["hidden"]))
    state = torch.load(directory / WEIGHTS_FILE, map_location="cpu", weights_only=True)
    model.load_state_dict(state)
    return model.to(device or torch.device("cpu")).eval(), config
