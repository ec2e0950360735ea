"""The ChEMU pair classifier: (anaphor, antecedent) -> none or one of the five link types.

A wide-and-deep network over the string features of `chemu_features`: every feature has a
learned vector (summed over the pair's features, then two layers) and a learned weight per
class (the "wide" part: a log-linear model beside the network). Sparse embeddings with
SparseAdam keep an epoch over the ChEMU-Ref training set to seconds on a CPU.

A trained model is a directory: `weights.pt` (state dict), `features.json` (the feature
vocabulary) and `config.json` (sizes, decoding threshold, how it was trained, held-out
scores), written last so that its presence means the model is complete.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from corefscore.corpus import LINK_TYPES
from modelserve.arrays import FloatArray, IntArray
from modelserve.devices import pick_device
from modelserve.loaded_models import LoadedModels

# The model's output classes: no link, then the domain's five link types in their order.
CLASSES = ("NONE", *LINK_TYPES)
CONFIG_FILE, WEIGHTS_FILE, FEATURES_FILE = "config.json", "weights.pt", "features.json"
CPU = torch.device("cpu")


@dataclass
class PairTable:
    """The pairs of some snippets packed once: feature ids (concatenated), numbers, labels."""

    ids: torch.Tensor
    lengths: torch.Tensor
    numbers: torch.Tensor
    labels: torch.Tensor
    starts: torch.Tensor = field(init=False)

    def __post_init__(self) -> None:
        self.starts = torch.cumsum(self.lengths, 0) - self.lengths

    def __len__(self) -> int:
        return int(self.lengths.shape[0])

    def batch(
        self, selection: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """(ids, offsets, numbers, labels) of the selected pairs, as EmbeddingBag wants them."""
        lengths = self.lengths[selection]
        offsets = torch.cumsum(lengths, 0) - lengths
        shift = torch.repeat_interleave(self.starts[selection] - offsets, lengths)
        positions = shift + torch.arange(int(lengths.sum()))
        return self.ids[positions], offsets, self.numbers[selection], self.labels[selection]


def pack(
    vocabulary: dict[str, int],
    feature_lists: list[list[str]],
    numbers: list[list[float]],
    labels: list[int] | None = None,
) -> PairTable:
    """Pairs given as feature strings; features outside the vocabulary are left out."""
    id_rows = [
        np.array([vocabulary[f] for f in features if f in vocabulary], dtype=np.int64)
        for features in feature_lists
    ]
    return pack_ids(id_rows, numbers, labels)


def pack_ids(
    id_rows: Sequence[IntArray], numbers: list[list[float]], labels: list[int] | None = None
) -> PairTable:
    """Pairs given as arrays of feature ids (vocabulary ids, from 1)."""
    width = len(numbers[0]) if numbers else 0
    ids = np.concatenate(id_rows) if id_rows else np.zeros(0, dtype=np.int64)
    return PairTable(
        torch.from_numpy(ids.astype(np.int64)),
        torch.tensor([len(row) for row in id_rows], dtype=torch.long),
        torch.tensor(np.asarray(numbers, dtype=np.float32).reshape(len(id_rows), width)),
        torch.tensor(labels if labels is not None else [0] * len(id_rows), dtype=torch.long),
    )


class PairScorer(nn.Module):
    def __init__(
        self, vocabulary_size: int, number_count: int, hidden: int = 128, dropout: float = 0.2
    ):
        super().__init__()
        classes = len(CLASSES)
        self.deep = nn.EmbeddingBag(vocabulary_size + 1, hidden, mode="sum", sparse=True)
        self.wide = nn.EmbeddingBag(vocabulary_size + 1, classes, mode="sum", sparse=True)
        self.numbers = nn.Linear(number_count, hidden)
        self.head = nn.Sequential(
            nn.LayerNorm(hidden),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, classes),
        )
        # A pair sums ~80 feature vectors: start them small (and the log-linear part at zero),
        # not at torch's N(0, 1), which would start every logit far from the others.
        nn.init.normal_(self.deep.weight, std=0.05)
        nn.init.zeros_(self.wide.weight)

    def forward(
        self, ids: torch.Tensor, offsets: torch.Tensor, numbers: torch.Tensor
    ) -> torch.Tensor:
        hidden = self.deep(ids, offsets) + self.numbers(numbers)
        logits: torch.Tensor = self.head(hidden) + self.wide(ids, offsets)
        return logits


def fit(
    model: PairScorer,
    table: PairTable,
    *,
    epochs: int,
    seed: int,
    batch_size: int = 256,
    learning_rate: float = 2e-3,
    device: torch.device = CPU,
    log: Callable[[str], None] = print,
) -> PairScorer:
    torch.manual_seed(seed)
    order_generator = torch.Generator().manual_seed(seed)
    model.to(device).train()
    sparse = [model.deep.weight, model.wide.weight]
    dense = [p for p in model.parameters() if all(p is not s for s in sparse)]
    optimisers = [
        torch.optim.SparseAdam(sparse, lr=learning_rate),
        torch.optim.Adam(dense, lr=learning_rate),
    ]
    for epoch in range(epochs):
        total = 0.0
        order = torch.randperm(len(table), generator=order_generator)
        for start in range(0, len(order), batch_size):
            ids, offsets, numbers, labels = (
                t.to(device) for t in table.batch(order[start : start + batch_size])
            )
            loss = nn.functional.cross_entropy(model(ids, offsets, numbers), labels)
            for optimiser in optimisers:
                optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]  # unannotated in torch
            for optimiser in optimisers:
                optimiser.step()
            total += loss.item() * len(labels)
        log(f"epoch {epoch + 1}/{epochs}: loss {total / max(1, len(table)):.4f}")
    return model.eval()


def probabilities(
    model: PairScorer, table: PairTable, *, device: torch.device, batch_size: int = 4096
) -> FloatArray:
    """(pairs, classes) softmax probabilities, in table order."""
    model.eval()
    out = []
    with torch.inference_mode():
        for start in range(0, len(table), batch_size):
            selection = torch.arange(start, min(start + batch_size, len(table)))
            ids, offsets, numbers, _ = (t.to(device) for t in table.batch(selection))
            out.append(torch.softmax(model(ids, offsets, numbers), dim=-1).float().cpu().numpy())
    return np.concatenate(out) if out else np.zeros((0, len(CLASSES)), dtype=np.float32)


# ------------------------------------------------------------------ saving and loading


@dataclass
class ChemuModel:
    scorer: PairScorer
    vocabulary: dict[str, int]
    config: dict[str, Any]
    device: torch.device


def save(model: ChemuModel, directory: str | Path) -> Path:
    """Write the model; config.json goes last (atomically), so its presence means complete."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / CONFIG_FILE).unlink(missing_ok=True)
    # an ensemble saved here (chemu_ensemble.MANIFEST) was built beside the model replaced now
    (directory / "ensemble.json").unlink(missing_ok=True)
    state = {name: tensor.detach().cpu() for name, tensor in model.scorer.state_dict().items()}
    torch.save(state, directory / WEIGHTS_FILE)
    features = sorted(model.vocabulary, key=model.vocabulary.__getitem__)
    (directory / FEATURES_FILE).write_text(json.dumps(features), encoding="utf-8")
    partial = directory / (CONFIG_FILE + ".partial")
    partial.write_text(json.dumps(model.config, indent=2, sort_keys=True), encoding="utf-8")
    os.replace(partial, directory / CONFIG_FILE)
    return directory


def is_complete(directory: str | Path) -> bool:
    directory = Path(directory)
    return all((directory / name).is_file() for name in (CONFIG_FILE, WEIGHTS_FILE, FEATURES_FILE))


_LOADED: LoadedModels[tuple[str, str, int], ChemuModel] = LoadedModels("chemu link models")


def load(directory: str | Path, device: str | torch.device | None = "auto") -> ChemuModel:
    """The model in `directory` on `device`, loaded once per process (again if retrained) while
    it stays in the bounded cache (loaded_models.py)."""
    directory = Path(directory).expanduser().resolve()
    if not is_complete(directory):
        raise FileNotFoundError(
            f"no trained chemu model in {directory}: "
            "train one with `python -m modelserve.train --backend chemu`"
        )
    target = device if isinstance(device, torch.device) else pick_device(device)
    key = (str(directory), str(target), (directory / CONFIG_FILE).stat().st_mtime_ns)

    def load_model() -> ChemuModel:
        config = json.loads((directory / CONFIG_FILE).read_text(encoding="utf-8"))
        features = json.loads((directory / FEATURES_FILE).read_text(encoding="utf-8"))
        vocabulary = {feature: index + 1 for index, feature in enumerate(features)}
        scorer = PairScorer(
            len(vocabulary), int(config["number_count"]), hidden=int(config["hidden"])
        )
        state = torch.load(directory / WEIGHTS_FILE, map_location="cpu", weights_only=True)
        scorer.load_state_dict(state)
        return ChemuModel(scorer.to(target).eval(), vocabulary, config, target)

    return _LOADED.get(key, load_model)


def limit_cpu_threads() -> None:
    """Lower torch's CPU threads to `COREFAPP_TORCH_THREADS`, by default half the cores (1 to 4).

    The pair model is small: more threads than free cores only slow it down, and the web
    server, the database and the other workers share the machine. Never raises the count.
    """
    default = max(1, min(4, (os.cpu_count() or 1) // 2))
    wanted = max(1, int(os.environ.get("COREFAPP_TORCH_THREADS", default)))
    if torch.get_num_threads() > wanted:
        torch.set_num_threads(wanted)
