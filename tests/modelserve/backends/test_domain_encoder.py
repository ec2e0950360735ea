"""A domain encoder given by path (docs/mentions.md, the levers): the mention tagger trains on any
local Hugging Face checkpoint's vectors, saves the path, and loads it back with the tagger.
Nothing is downloaded: the checkpoint here is a tiny random BERT made in the test (no
chemistry encoder is packaged), with the packaged MiniLM's vocabulary."""

from __future__ import annotations

import shutil

import torch
from transformers import AutoTokenizer, BertConfig, BertModel

from corefscore.formats.chemu import read_chemu_jsonlines
from modelserve.backends import chemu_mentions, mention_tagger
from modelserve.backends.mention_features import WordEncoder
from modelserve.backends.vector_cache import VectorCache
from modelserve.encoders import default_encoder_path
from tests.paths import CHEMU_TRAIN


def local_checkpoint(directory):
    """A 2-layer BERT of width 24 saved as a local checkpoint."""
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(f"{default_encoder_path()}/{name}", directory / name)
    tokenizer = AutoTokenizer.from_pretrained(directory, local_files_only=True)
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=24,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=512,  # the copied tokenizer says 512
    )
    BertModel(config).save_pretrained(directory)
    return directory


def test_the_tagger_trains_on_a_local_encoder_and_loads_it_back(tmp_path):
    encoder_dir = local_checkpoint(tmp_path)
    topics = read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[:3]
    out = tmp_path / "tagger"

    chemu_mentions.train_chemu_mentions(
        topics,
        out,
        epochs=1,
        hidden=8,
        holdout_fraction=0.0,
        encoder_path=str(encoder_dir),
        device="cpu",
        vector_folder=tmp_path / "cache",
        log=lambda line: None,
    )
    tagger = mention_tagger.load(out, "cpu")

    assert tagger.config["encoder_path"] == str(encoder_dir)
    assert tagger.config["encoder_dim"] == 2 * 24  # last and middle layer of *this* encoder
    assert tagger.encoder.encoder.path == str(encoder_dir.resolve())
    assert len(tagger.mentions([topics[0].documents[0].tokens])) == 1
    # its vectors are kept apart from MiniLM's: the cache key names the encoder
    tokens = topics[0].documents[0].tokens
    assert VectorCache(tmp_path / "cache", tagger.encoder).get(tokens) is not None
    assert VectorCache(tmp_path / "cache", WordEncoder(None, "cpu")).get(tokens) is None
