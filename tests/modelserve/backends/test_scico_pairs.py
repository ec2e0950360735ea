"""The cross-encoder's input is SciCo's: the marked paragraphs concatenated with the separator
into one string, tokenized whole, global attention on the first token and the markers (and
CDLM's document markers for a CDLM checkpoint). Checked on the tokenizer's output against a
port of SciCo's CrossEncoderDataset and tokenize_batch."""

from __future__ import annotations

from itertools import product

import torch
from transformers import AutoTokenizer

from modelserve.backends.cross_encoder import CrossEncoderBackend
from tests.modelserve.backends.test_cross_encoder import PERMUTED, tiny_checkpoint
from tests.modelserve.scico_topics import build_topic


def scico_inputs(topic, tokenizer, sep, cdlm=False):
    """Port of models/datasets.py CrossEncoderDataset.get_full_doc_mention + get_topic_pairs
    (all ordered pairs i != j, i-major) and models/muticlass.py MulticlassCrossEncoder
    tokenize_batch + get_global_attention."""
    texts = []
    for mention in topic.mentions:
        tokens = topic.documents[mention.document].tokens
        ((start, end),) = mention.spans
        rep = tokens[:start] + ["<m>"] + tokens[start : end + 1] + ["</m>"]
        rep += tokens[end + 1 :] + [sep]
        if cdlm:
            rep = ["<doc-s>"] + rep + ["</doc-s>"]
        texts.append(" ".join(rep))
    n = len(texts)
    pairs = [(x, y) for x, y in product(range(n), repeat=2) if x != y]
    inputs = [texts[x] + sep + texts[y] for x, y in pairs]
    tokens = tokenizer(inputs, padding=True)
    input_ids = torch.tensor(tokens["input_ids"])
    mask = torch.zeros(input_ids.shape)
    mask[:, 0] = 1
    markers = ["<m>", "</m>"] + (["<doc-s>", "</doc-s>"] if cdlm else [])
    for marker in markers:
        found = torch.nonzero(input_ids == tokenizer.convert_tokens_to_ids(marker))
        mask.index_put_(tuple(found.t()), torch.ones(found.shape[0]))
    return pairs, input_ids, torch.tensor(tokens["attention_mask"]), mask


def backend_inputs(backend, topic, pairs):
    texts = backend.contexts(topic)
    return backend.encode([texts[i] + backend.separator + texts[j] for i, j in pairs])


def check(backend, topic, cdlm):
    tokenizer = AutoTokenizer.from_pretrained(backend.params["model_path"], local_files_only=True)
    pairs, ids, attention, mask = scico_inputs(topic, tokenizer, "[SEP]", cdlm=cdlm)
    got = backend_inputs(backend, topic, pairs)
    assert torch.equal(got["input_ids"], ids)
    assert torch.equal(got["attention_mask"], attention)
    assert torch.equal(got["global_attention_mask"], mask.long())
    # and the batches the backend scores are these pairs
    seen = {}
    for first, second, inputs in backend.batches(topic):
        for row, (i, j) in enumerate(zip(first, second, strict=True)):
            length = int(inputs["attention_mask"][row].sum())
            seen[(int(i), int(j))] = inputs["input_ids"][row, :length].tolist()
    for k, pair in enumerate(pairs):
        assert seen[pair] == ids[k, : int(attention[k].sum())].tolist()


def test_pair_inputs_are_scicos(tmp_path):
    path = tiny_checkpoint(tmp_path, PERMUTED)
    backend = CrossEncoderBackend({"model_path": str(path), "device": "cpu"})
    assert not backend.cdlm
    topic = build_topic()
    check(backend, topic, cdlm=False)
    text = backend.tokenizer.decode(backend_inputs(backend, topic, [(0, 1)])["input_ids"][0])
    assert text.startswith("[CLS] we train a <m> neural machine translation </m> model")
    assert "data. [SEP] [SEP] <m> nmt </m> systems" in text


def test_a_cdlm_checkpoint_gets_document_markers_with_global_attention(tmp_path):
    path = tiny_checkpoint(
        tmp_path, PERMUTED, extra_tokens=("<doc-s>", "</doc-s>"), folder="cdlm-tiny"
    )
    backend = CrossEncoderBackend({"model_path": str(path), "device": "cpu"})
    assert backend.cdlm
    topic = build_topic()
    check(backend, topic, cdlm=True)
    ids = backend_inputs(backend, topic, [(0, 1)])["input_ids"]
    doc_start = backend.tokenizer.convert_tokens_to_ids("<doc-s>")
    assert int((ids == doc_start).sum()) == 2
