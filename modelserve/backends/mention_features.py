"""What the mention tagger reads of each word: its vector from a frozen encoder, its form, its
characters.

Encoder vectors: the document's words go through the encoder (packaged MiniLM by default, or
any local Hugging Face encoder) in windows of at most its maximum length, half-overlapping
when the document is longer; each word takes its vector from the window where it is furthest
from an edge (the most context on both sides). A word's vector is the mean of its sub-words'
vectors of the last layer and of the middle layer, side by side. The encoder stays frozen:
on a CPU, fine-tuning it costs minutes per epoch, and these vectors are computed once per
document (then every epoch reads them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from modelserve.arrays import FloatArray, IntArray
from modelserve.encoders import LoadedEncoder, load_encoder

MAX_CHARS = 24
_DIGITS = re.compile(r"\d")


def word_form(word: str) -> str:
    """What the word embedding is keyed on: lower case, every digit 0."""
    return _DIGITS.sub("0", word.lower())


@dataclass
class WordVocabulary:
    """Learned-embedding ids: word forms seen at least twice (0: other), characters (1: other)."""

    forms: dict[str, int]
    chars: dict[str, int]

    @classmethod
    def build(cls, documents: list[list[str]], min_count: int = 2) -> WordVocabulary:
        counts: dict[str, int] = {}
        chars: set[str] = set()
        for tokens in documents:
            for token in tokens:
                form = word_form(token)
                counts[form] = counts.get(form, 0) + 1
                chars.update(token[:MAX_CHARS])
        kept = sorted(form for form, count in counts.items() if count >= min_count)
        return cls(
            {form: k + 1 for k, form in enumerate(kept)},
            {char: k + 2 for k, char in enumerate(sorted(chars))},
        )

    def word_ids(self, tokens: list[str]) -> IntArray:
        return np.array([self.forms.get(word_form(t), 0) for t in tokens], dtype=np.int64)

    def char_ids(self, tokens: list[str]) -> IntArray:
        table = np.zeros((len(tokens), MAX_CHARS), dtype=np.int64)
        for row, token in enumerate(tokens):
            for column, char in enumerate(token[:MAX_CHARS]):
                table[row, column] = self.chars.get(char, 1)
        return table


class WordEncoder:
    """Frozen encoder vectors for the words of documents."""

    def __init__(
        self,
        path: str | Path | None = None,
        device: str | torch.device = "auto",
        batch_size: int = 16,
    ) -> None:
        self.encoder: LoadedEncoder = load_encoder(path, device)
        config = self.encoder.model.config
        self.middle = max(1, int(config.num_hidden_layers) // 2)
        self.dim = 2 * int(config.hidden_size)
        self.batch_size = batch_size

    def windows(self, tokens: list[str]) -> tuple[list[tuple[int, int]], list[int]]:
        """Word windows [lo, hi) that fit the encoder, and each word's window."""
        tokenizer = self.encoder.tokenizer
        budget = self.encoder.max_length - tokenizer.num_special_tokens_to_add()
        counts = [0] * len(tokens)
        # the whole document, only to count sub-words (so no warning about its length)
        encoding = tokenizer(
            tokens, is_split_into_words=True, add_special_tokens=False, verbose=False
        )
        for word in encoding.word_ids():
            if word is not None:
                counts[word] += 1
        windows: list[tuple[int, int]] = []
        start = 0
        while True:
            end, used = start, 0
            while end < len(tokens) and (end == start or used + counts[end] <= budget):
                used += counts[end]
                end += 1
            windows.append((start, end))
            if end >= len(tokens):
                break
            start = max(start + 1, start + (end - start) // 2)
        owner = []
        for word in range(len(tokens)):
            margins = [
                (min(word - lo, hi - 1 - word), k)
                for k, (lo, hi) in enumerate(windows)
                if lo <= word < hi
            ]
            owner.append(max(margins)[1])
        return windows, owner

    def vectors(self, documents: list[list[str]]) -> list[FloatArray]:
        """(words, dim) float16 arrays, one per document."""
        jobs = []  # (document, window, lo, hi)
        owners, placed = [], []
        for d, tokens in enumerate(documents):
            windows, owner = self.windows(tokens) if tokens else ([], [])
            owners.append(owner)
            placed.append(windows)
            jobs += [(d, k, lo, hi) for k, (lo, hi) in enumerate(windows)]
        pooled: dict[tuple[int, int], FloatArray] = {}
        jobs.sort(key=lambda job: job[3] - job[2])
        tokenizer, model, device = self.encoder.tokenizer, self.encoder.model, self.encoder.device
        for first in range(0, len(jobs), self.batch_size):
            batch = jobs[first : first + self.batch_size]
            encoding = tokenizer(
                [documents[d][lo:hi] for d, _, lo, hi in batch],
                is_split_into_words=True,
                padding=True,
                truncation=True,
                max_length=self.encoder.max_length,
                return_tensors="pt",
            )
            inputs = {
                k: v.to(device)
                for k, v in encoding.items()
                if k in ("input_ids", "attention_mask", "token_type_ids")
            }
            with torch.inference_mode():
                states = model(**inputs, output_hidden_states=True).hidden_states
                hidden = torch.cat([states[-1], states[self.middle]], dim=-1).float().cpu().numpy()
            for row, (d, k, lo, hi) in enumerate(batch):
                out = np.zeros((hi - lo, self.dim), dtype=np.float32)
                seen = np.zeros(hi - lo, dtype=np.float32)
                for position, word in enumerate(encoding.word_ids(row)):
                    if word is not None:
                        out[word] += hidden[row, position]
                        seen[word] += 1
                pooled[(d, k)] = out / np.maximum(seen, 1)[:, None]
        result = []
        for d, tokens in enumerate(documents):
            windows = placed[d]
            array = np.zeros((len(tokens), self.dim), dtype=np.float16)
            for word, k in enumerate(owners[d]):
                array[word] = pooled[(d, k)][word - windows[k][0]]
            result.append(array)
        return result
