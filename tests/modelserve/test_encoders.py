import numpy as np
import pytest
import torch

from corefscore.corpus import DocumentData, MentionData, TopicData
from modelserve.encoders import MentionEncoder, default_encoder_path, load_encoder
from tests.modelserve.scico_topics import build_topic

torch.set_num_threads(min(2, torch.get_num_threads()))


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")


def test_the_packaged_minilm_loads_offline_once_per_process():
    first = load_encoder(None, "cpu")
    assert first.model.config.hidden_size == 384
    assert first.max_length == 256
    assert load_encoder(default_encoder_path(), "cpu") is first


def test_mention_embeddings_are_one_l2_normalised_row_per_mention():
    topic = build_topic()
    vectors = MentionEncoder(device="cpu").embed(topic)
    assert vectors.shape == (len(topic.mentions), 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_identical_mentions_in_identical_contexts_embed_identically():
    tokens = ["We", "fine-tune", "BERT", "on", "the", "GLUE", "benchmark", "."]
    other = [
        "Our",
        "parser",
        "uses",
        "a",
        "bidirectional",
        "LSTM",
        "encoder",
        "over",
        "characters",
        "and",
        "words",
        ".",
    ]
    topic = TopicData(
        "same",
        [DocumentData("a", tokens), DocumentData("b", other), DocumentData("c", list(tokens))],
        [MentionData(0, ((2, 2),)), MentionData(1, ((4, 5),)), MentionData(2, ((2, 2),))],
    )
    vectors = MentionEncoder(device="cpu", batch_size=2).embed(topic)
    assert np.allclose(vectors[0], vectors[2], atol=1e-5)
    assert not np.allclose(vectors[0], vectors[1], atol=1e-2)


def test_a_discontinuous_mention_pools_all_its_spans():
    tokens = ["the", "encoder", "and", "the", "decoder", "layers", "of", "the", "model"]
    topic = TopicData(
        "disc",
        [DocumentData("a", tokens)],
        [MentionData(0, ((1, 1), (5, 5))), MentionData(0, ((1, 1),)), MentionData(0, ((4, 5),))],
    )
    vectors = MentionEncoder(device="cpu").embed(topic)
    assert not np.allclose(vectors[0], vectors[1], atol=1e-3)
    assert vectors[0] @ vectors[1] > 0.5


def test_a_mention_past_the_model_limit_is_embedded_from_a_window_around_it():
    filler = ("lorem ipsum dolor sit amet " * 60).split()
    tokens = filler + ["we", "use", "a", "recurrent", "neural", "network", "here", "."]
    start = len(filler) + 3
    long_topic = TopicData(
        "long", [DocumentData("a", tokens)], [MentionData(0, ((start, start + 2),))]
    )
    short_topic = TopicData(
        "short",
        [DocumentData("b", ["we", "use", "a", "recurrent", "neural", "network", "here", "."])],
        [MentionData(0, ((3, 5),))],
    )
    encoder = MentionEncoder(device="cpu", max_length=32)
    assert encoder.embed(long_topic)[0] @ encoder.embed(short_topic)[0] > 0.8


def test_a_span_outside_its_document_is_refused():
    topic = TopicData("bad", [DocumentData("a", ["one", "two"])], [MentionData(0, ((1, 2),))])
    with pytest.raises(ValueError, match="outside document"):
        MentionEncoder(device="cpu").embed(topic)


def test_a_roberta_style_bpe_checkpoint_given_by_path_embeds_mentions_too(tmp_path):
    from tokenizers import ByteLevelBPETokenizer
    from transformers import RobertaConfig, RobertaModel, RobertaTokenizerFast

    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(
        ["neural machine translation with attention", "graph neural networks"] * 10,
        vocab_size=300,
        special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"],
    )
    tokenizer = RobertaTokenizerFast(
        tokenizer_object=bpe._tokenizer,
        bos_token="<s>",
        eos_token="</s>",
        sep_token="</s>",
        cls_token="<s>",
        unk_token="<unk>",
        pad_token="<pad>",
        mask_token="<mask>",
    )
    tokenizer.save_pretrained(tmp_path)
    torch.manual_seed(0)
    config = RobertaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=37,
        max_position_embeddings=66,
        pad_token_id=tokenizer.pad_token_id,
    )
    RobertaModel(config).save_pretrained(tmp_path)
    topic = TopicData(
        "bpe",
        [DocumentData("a", ["we", "use", "neural", "machine", "translation", "with", "attention"])],
        [MentionData(0, ((2, 4),)), MentionData(0, ((6, 6),))],
    )
    encoder = MentionEncoder(tmp_path, device="cpu")
    assert encoder.max_length == 64  # 66 positions minus RoBERTa's padding offset
    vectors = encoder.embed(topic)
    assert vectors.shape == (2, 32)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
