"""The mention tagger: words -> layered BIOHD tags (`biohd`) -> mentions with scores.

Per word: its frozen encoder vector (`mention_features.WordEncoder`), a learned embedding of
its form and a character CNN (chemical names, quantities and units are told apart by their
characters). Two BiLSTM layers read the document; per BIOHD layer a linear map gives tag
scores and a CRF (`crf`) decodes them, the scheme's forbidden transitions masked. A
mention's score is the mean marginal probability of its tags.

Speed (docs/mentions.md, "Training time"): the encoder vectors are computed once per document
before training (`chemu_mentions.encoded`, kept on disk by `vector_cache`), so an epoch runs
the trained layers only. The batches are padded once, not every epoch; the character CNN runs
once per distinct spelling of a batch (`collate`), not per word; and the network's matrix work
(projection, convolutions, character CNN) runs in bfloat16 where the hardware has it (a CPU
with AVX-512 BF16, most GPUs) when asked (`precision="auto"`/"bfloat16"): 2.2x faster
convolutions on this machine's CPU; the CRF and the loss stay in float32. The default is
float32: bfloat16 cost 0.006 exact mention F1 in a check (docs/mentions.md).

A trained tagger is a directory: `weights.pt`, `vocabulary.json`, and `config.json`
(written last, so that its presence means the tagger is complete).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from modelserve.arrays import FloatArray, IntArray
from modelserve.backends import biohd
from modelserve.backends.crf import CRF
from modelserve.backends.mention_features import MAX_CHARS, WordEncoder, WordVocabulary
from modelserve.devices import pick_device
from modelserve.loaded_models import LoadedModels

CONFIG_FILE, WEIGHTS_FILE, VOCABULARY_FILE = "config.json", "weights.pt", "vocabulary.json"
TAG_COUNT = len(biohd.TAGS)


@dataclass
class Sequence:
    """One document as the network reads it; `tags` (layers, words) only for training."""

    vectors: FloatArray
    words: IntArray
    chars: IntArray
    tags: IntArray | None = None


class TaggerNet(nn.Module):
    def __init__(
        self,
        encoder_dim: int,
        form_count: int,
        char_count: int,
        layers: int = 2,
        hidden: int = 128,
        dropout: float = 0.3,
        context: str = "lstm",
    ) -> None:
        super().__init__()
        self.layers = layers
        self.context = context
        self.project = nn.Linear(encoder_dim, 256)
        self.forms = nn.Embedding(form_count + 1, 64, padding_idx=0)
        self.chars = nn.Embedding(char_count + 2, 32, padding_idx=0)
        self.char_cnn = nn.Conv1d(32, 64, kernel_size=3, padding=1)
        self.dropout = nn.Dropout(dropout)
        # "lstm": two BiLSTM layers; "conv": two convolutions over 5 words (several times
        # faster on a CPU; the encoder vectors already carry the sentence's context)
        if context == "lstm":
            self.lstm = nn.LSTM(
                256 + 64 + 64,
                hidden,
                num_layers=2,
                bidirectional=True,
                batch_first=True,
                dropout=dropout,
            )
        elif context == "conv":
            self.convs = nn.ModuleList(
                [
                    nn.Conv1d(256 + 64 + 64, 2 * hidden, kernel_size=5, padding=2),
                    nn.Conv1d(2 * hidden, 2 * hidden, kernel_size=5, padding=2),
                ]
            )
        # "none": the tags from each word's own inputs (the CRF alone joins neighbours)
        self.emit = nn.Linear(2 * hidden if context != "none" else 384, layers * TAG_COUNT)
        # one CRF for every layer (the same scheme): the layers go through it as one batch
        self.crf = CRF(biohd.ALLOWED, biohd.START_ALLOWED)

    def emissions(
        self,
        vectors: torch.Tensor,
        words: torch.Tensor,
        spellings: torch.Tensor,
        spelling_of: torch.Tensor,
    ) -> torch.Tensor:
        """(batch, layers, time, tags) tag scores. `spellings` (n, MAX_CHARS): the batch's
        distinct character rows; `spelling_of` (batch, time): each word's row (`collate`)."""
        batch, time = words.shape
        # the character CNN once per distinct spelling, not per word: a batch's words are
        # ~a fifth distinct ("the", "mL", padding), and it was a third of the convolutions'
        # time; the same numbers, as no dropout comes before it
        char_vectors = self.chars(spellings).transpose(1, 2)
        char_features = torch.relu(self.char_cnn(char_vectors)).max(dim=2).values
        inputs = torch.cat(
            [
                torch.relu(self.project(self.dropout(vectors))),
                self.forms(words),
                char_features[spelling_of],
            ],
            dim=-1,
        )
        if self.context == "lstm":
            hidden, _ = self.lstm(self.dropout(inputs))
        elif self.context == "none":
            hidden = inputs
        else:
            hidden = self.dropout(inputs).transpose(1, 2)
            for k, conv in enumerate(self.convs):
                hidden = torch.relu(conv(self.dropout(hidden) if k else hidden))
            hidden = hidden.transpose(1, 2)
        scores: torch.Tensor = self.emit(self.dropout(hidden))
        return scores.view(batch, time, self.layers, TAG_COUNT).transpose(1, 2)

    def by_layer(self, emissions: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """(batch * layers, time, tags) emissions and the mask to go with them."""
        batch, layers, time, tags = emissions.shape
        return (
            emissions.reshape(batch * layers, time, tags),
            mask.repeat_interleave(layers, dim=0),
        )


def collate(
    sequences: list[Sequence], device: torch.device, layers: int
) -> tuple[torch.Tensor, ...]:
    """Padded (vectors, words, spellings, spelling_of, mask, tags) tensors: `spellings` the
    distinct character rows of the batch's words (padding's included), `spelling_of` the row
    of each word's (`TaggerNet.emissions`)."""
    time = max(len(s.words) for s in sequences)
    batch = len(sequences)
    dim = sequences[0].vectors.shape[1]
    vectors = np.zeros((batch, time, dim), dtype=np.float32)
    words = np.zeros((batch, time), dtype=np.int64)
    chars = np.zeros((batch, time, MAX_CHARS), dtype=np.int64)
    mask = np.zeros((batch, time), dtype=bool)
    tags = np.zeros((batch, layers, time), dtype=np.int64)
    for row, s in enumerate(sequences):
        n = len(s.words)
        vectors[row, :n] = s.vectors
        words[row, :n], chars[row, :n], mask[row, :n] = s.words, s.chars, True
        if s.tags is not None:
            tags[row, :, :n] = s.tags[:layers]
    spellings, spelling_of = np.unique(
        chars.reshape(batch * time, MAX_CHARS), axis=0, return_inverse=True
    )
    arrays = (vectors, words, spellings, spelling_of.reshape(batch, time), mask, tags)
    return tuple(torch.from_numpy(array).to(device) for array in arrays)


def bfloat16_supported(device: torch.device) -> bool:
    if device.type == "cuda":
        return bool(torch.cuda.is_bf16_supported())
    return device.type == "cpu" and bool(torch.cpu._is_avx512_bf16_supported())


def resolve_precision(precision: str, device: torch.device) -> str:
    """ "bfloat16" or "float32": `auto` (and a saved "bfloat16") is bfloat16 where supported."""
    if precision not in ("auto", "bfloat16", "float32"):
        raise ValueError(f"unknown precision {precision!r}: auto, bfloat16 or float32")
    if precision == "float32" or not bfloat16_supported(device):
        return "float32"
    return "bfloat16"


def scores(
    net: TaggerNet,
    vectors: torch.Tensor,
    words: torch.Tensor,
    spellings: torch.Tensor,
    spelling_of: torch.Tensor,
    precision: str = "float32",
) -> torch.Tensor:
    """The emissions in float32, the network run in `precision` (resolved)."""
    with torch.autocast(vectors.device.type, dtype=torch.bfloat16, enabled=precision == "bfloat16"):
        emissions = net.emissions(vectors, words, spellings, spelling_of)
    return emissions.float()


def fit(
    net: TaggerNet,
    sequences: list[Sequence],
    *,
    epochs: int,
    seed: int,
    device: torch.device,
    batch_size: int = 16,
    learning_rate: float = 3e-3,
    precision: str = "float32",
    progress: Callable[[int, float], None] = lambda epoch, loss: None,
) -> TaggerNet:
    """Train on documents batched by length (shuffled batches); `progress(epoch, loss)`.
    `precision`: "float32" or "bfloat16" (of the network; `resolve_precision`)."""
    torch.manual_seed(seed)
    shuffler = random.Random(seed)
    net.to(device).train()
    optimiser = torch.optim.Adam(net.parameters(), lr=learning_rate)
    # a small training set (a project's own few topics) still gets 4 steps per epoch
    batch_size = max(1, min(batch_size, len(sequences) // 4))
    by_length = sorted(range(len(sequences)), key=lambda k: len(sequences[k].words))
    batches = [by_length[k : k + batch_size] for k in range(0, len(by_length), batch_size)]
    # padded once: the same batches every epoch, only their order changes
    padded = {
        id(indices): collate([sequences[k] for k in indices], device, net.layers)
        for indices in batches
    }
    # the rate falls linearly to 0 over the run: with a constant one the held-out F1 of the
    # last epoch swung by +-0.015 from one epoch to the next (docs/mentions.md)
    steps = max(1, epochs * len(batches))
    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda step: 1 - step / steps)
    for epoch in range(epochs):
        shuffler.shuffle(batches)
        total, words = 0.0, 0
        for indices in batches:
            vectors, forms, spellings, spelling_of, mask, tags = padded[id(indices)]
            emitted = scores(net, vectors, forms, spellings, spelling_of, precision)
            emissions, layer_mask = net.by_layer(emitted, mask)
            layer_tags = tags.reshape(-1, tags.shape[2])
            loss = net.crf.negative_log_likelihood(emissions, layer_tags, layer_mask)
            count = int(mask.sum())
            optimiser.zero_grad()
            (loss / count).backward()  # type: ignore[no-untyped-call]
            nn.utils.clip_grad_norm_(net.parameters(), 5.0)
            optimiser.step()
            schedule.step()
            total += float(loss.detach())
            words += count
        progress(epoch + 1, total / max(1, words))
    return net.eval()


def predict(
    net: TaggerNet,
    sequences: list[Sequence],
    device: torch.device,
    batch_size: int = 8,
    precision: str = "float32",
) -> list[list[tuple[biohd.Spans, float]]]:
    """Per document: (spans, score) of every mention found, in order of first token."""
    net.eval()
    results: list[list[tuple[biohd.Spans, float]]] = [[] for _ in sequences]
    by_length = sorted(range(len(sequences)), key=lambda k: len(sequences[k].words))
    with torch.no_grad():
        for first in range(0, len(by_length), batch_size):
            indices = by_length[first : first + batch_size]
            vectors, forms, spellings, spelling_of, mask, _ = collate(
                [sequences[k] for k in indices], device, net.layers
            )
            emitted = scores(net, vectors, forms, spellings, spelling_of, precision)
            emissions, layer_mask = net.by_layer(emitted, mask)
            paths = net.crf.viterbi(emissions, layer_mask)
            marginals = net.crf.marginals(emissions, layer_mask).cpu().numpy()
            found: list[dict[biohd.Spans, float]] = [{} for _ in indices]
            for flat, path in enumerate(paths):
                row = flat // net.layers
                for spans in biohd.decode_layer(path):
                    positions = [p for start, end in spans for p in range(start, end + 1)]
                    score = float(np.mean([marginals[flat, p, path[p]] for p in positions]))
                    found[row][spans] = max(score, found[row].get(spans, 0.0))
            for row, k in enumerate(indices):
                ordered = sorted(found[row], key=lambda spans: (spans[0][0], spans))
                results[k] = [(spans, round(found[row][spans], 6)) for spans in ordered]
    return results


# ------------------------------------------------------------------ the tagger as a whole


@dataclass
class MentionTagger:
    net: TaggerNet
    vocabulary: WordVocabulary
    encoder: WordEncoder
    config: dict[str, Any]
    device: torch.device

    @property
    def precision(self) -> str:
        """What it was trained in, where this device supports it (else float32)."""
        return resolve_precision(str(self.config.get("precision", "float32")), self.device)

    def sequences(
        self, documents: list[list[str]], vectors: list[FloatArray] | None = None
    ) -> list[Sequence]:
        vectors = vectors if vectors is not None else self.encoder.vectors(documents)
        return [
            Sequence(v, self.vocabulary.word_ids(tokens), self.vocabulary.char_ids(tokens))
            for tokens, v in zip(documents, vectors, strict=True)
        ]

    def mentions(self, documents: list[list[str]]) -> list[list[tuple[biohd.Spans, float]]]:
        """(spans, score) of the mentions found in each document (a list of words)."""
        nonempty = [k for k, tokens in enumerate(documents) if tokens]
        found = predict(
            self.net,
            self.sequences([documents[k] for k in nonempty]),
            self.device,
            precision=self.precision,
        )
        results: list[list[tuple[biohd.Spans, float]]] = [[] for _ in documents]
        for k, mentions in zip(nonempty, found, strict=True):
            results[k] = mentions
        return results


def save(tagger: MentionTagger, directory: str | Path) -> Path:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / CONFIG_FILE).unlink(missing_ok=True)
    state = {name: tensor.detach().cpu() for name, tensor in tagger.net.state_dict().items()}
    torch.save(state, directory / WEIGHTS_FILE)
    vocabulary = {"forms": tagger.vocabulary.forms, "chars": tagger.vocabulary.chars}
    (directory / VOCABULARY_FILE).write_text(json.dumps(vocabulary), encoding="utf-8")
    partial = directory / (CONFIG_FILE + ".partial")
    partial.write_text(json.dumps(tagger.config, indent=2, sort_keys=True), encoding="utf-8")
    os.replace(partial, directory / CONFIG_FILE)
    return directory


def is_complete(directory: str | Path) -> bool:
    directory = Path(directory)
    return all(
        (directory / name).is_file() for name in (CONFIG_FILE, WEIGHTS_FILE, VOCABULARY_FILE)
    )


_LOADED: LoadedModels[tuple[str, str, int], MentionTagger] = LoadedModels("mention taggers")


def load(directory: str | Path, device: str | torch.device = "auto") -> MentionTagger:
    """The tagger in `directory` on `device`, loaded once per process (again if retrained)
    while it stays in the bounded cache (loaded_models.py)."""
    directory = Path(directory).expanduser().resolve()
    if not is_complete(directory):
        raise FileNotFoundError(f"no trained mention tagger in {directory}")
    target = device if isinstance(device, torch.device) else pick_device(device)
    key = (str(directory), str(target), (directory / CONFIG_FILE).stat().st_mtime_ns)

    def load_tagger() -> MentionTagger:
        config = json.loads((directory / CONFIG_FILE).read_text(encoding="utf-8"))
        saved = json.loads((directory / VOCABULARY_FILE).read_text(encoding="utf-8"))
        vocabulary = WordVocabulary(saved["forms"], saved["chars"])
        net = build_net(config, vocabulary)
        state = torch.load(directory / WEIGHTS_FILE, map_location="cpu", weights_only=True)
        net.load_state_dict(state)
        encoder = WordEncoder(config.get("encoder_path"), target)
        return MentionTagger(net.to(target).eval(), vocabulary, encoder, config, target)

    return _LOADED.get(key, load_tagger)


def build_net(config: dict[str, Any], vocabulary: WordVocabulary) -> TaggerNet:
    return TaggerNet(
        int(config["encoder_dim"]),
        len(vocabulary.forms),
        len(vocabulary.chars),
        layers=int(config["layers"]),
        hidden=int(config["hidden"]),
        context=str(config.get("context", "lstm")),
    )
