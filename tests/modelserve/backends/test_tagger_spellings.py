"""The tagger's character CNN runs once per distinct spelling of a batch (a fifth of its
words), not once per word: the emissions and every gradient must be those of the plain
per-word computation, on real snippets, padding included."""

from __future__ import annotations

import numpy as np
import torch

from corefscore.formats.chemu import read_chemu_jsonlines
from modelserve.backends.mention_features import MAX_CHARS, WordVocabulary
from modelserve.backends.mention_tagger import Sequence, TaggerNet, collate
from tests.paths import CHEMU_TRAIN


def test_the_character_cnn_over_distinct_spellings_equals_it_over_every_word():
    documents = [
        document.tokens
        for topic in read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[:4]
        for document in topic.documents
    ]
    vocabulary = WordVocabulary.build(documents)
    generator = np.random.default_rng(0)
    sequences = [
        Sequence(
            generator.standard_normal((len(tokens), 8)).astype(np.float32),
            vocabulary.word_ids(tokens),
            vocabulary.char_ids(tokens),
        )
        for tokens in documents
    ]
    torch.manual_seed(0)
    net = TaggerNet(8, len(vocabulary.forms), len(vocabulary.chars), hidden=16, context="conv")
    net.eval()  # no dropout: both passes see the same network
    vectors, words, spellings, spelling_of, mask, _ = collate(sequences, torch.device("cpu"), 2)
    batch, time = words.shape

    # the plain input: every word's own characters, padding's rows of zeros included
    every_word = torch.zeros(batch, time, MAX_CHARS, dtype=torch.long)
    for row, sequence in enumerate(sequences):
        every_word[row, : len(sequence.chars)] = torch.from_numpy(sequence.chars)
    torch.testing.assert_close(spellings[spelling_of], every_word, rtol=0, atol=0)
    assert len(spellings) < mask.sum() / 2  # words do repeat: the saving is real

    def emitted_and_gradients(
        rows: torch.Tensor, row_of: torch.Tensor
    ) -> tuple[torch.Tensor, list[torch.Tensor]]:
        net.zero_grad()
        emitted = net.emissions(vectors, words, rows, row_of)
        (emitted * torch.linspace(-1, 1, emitted.numel()).view_as(emitted)).sum().backward()
        return emitted.detach(), [p.grad.clone() for p in net.parameters() if p.grad is not None]

    plain, plain_gradients = emitted_and_gradients(
        every_word.view(batch * time, MAX_CHARS), torch.arange(batch * time).view(batch, time)
    )
    distinct, distinct_gradients = emitted_and_gradients(spellings, spelling_of)

    torch.testing.assert_close(distinct, plain)
    assert len(distinct_gradients) == len(plain_gradients) == len(list(net.parameters())) - 3
    for fast, slow in zip(distinct_gradients, plain_gradients, strict=True):
        torch.testing.assert_close(fast, slow, rtol=1e-4, atol=1e-5)
