import shutil

import networkx as nx
import numpy as np
import pytest
import torch
from transformers import AutoTokenizer, LongformerConfig, LongformerForSequenceClassification

from modelserve.backends.cross_encoder import CrossEncoderBackend, label_order
from modelserve.backends.decoding import CHILD, COREF, PARENT, UNRELATED
from modelserve.encoders import default_encoder_path
from tests.modelserve.scico_topics import MT_DOCUMENTS, build_topic

torch.set_num_threads(min(2, torch.get_num_threads()))

PERMUTED = {0: "child", 1: "not related", 2: "coref", 3: "parent"}


def small_topic():
    """Six mentions (30 ordered pairs): Longformer's sliding attention is slow on a CPU."""
    return build_topic(MT_DOCUMENTS[:4], [("mt", "nmt"), ("mt", "smt")])


def tiny_checkpoint(directory, id2label, *, favour: int | None = None, extra_tokens=(), folder=""):
    """A randomly initialised 2-layer Longformer with the MiniLM WordPiece vocabulary + <m>,
    </m>."""
    source = directory / "tokenizer-source"
    source.mkdir()
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(f"{default_encoder_path()}/{name}", source / name)
    tokenizer = AutoTokenizer.from_pretrained(source, local_files_only=True)
    tokenizer.add_special_tokens({"additional_special_tokens": ["<m>", "</m>", *extra_tokens]})
    torch.manual_seed(0)
    config = LongformerConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=37,
        attention_window=[8, 8],
        max_position_embeddings=130,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.cls_token_id,
        eos_token_id=tokenizer.sep_token_id,
        sep_token_id=tokenizer.sep_token_id,
        num_labels=4,
        id2label=id2label,
        label2id={v: k for k, v in id2label.items()},
    )
    model = LongformerForSequenceClassification(config)
    if favour is not None:  # make one output win for every pair, to see which class it lands in
        with torch.no_grad():
            model.classifier.out_proj.weight.zero_()
            model.classifier.out_proj.bias.copy_(
                torch.tensor([10.0 if i == favour else 0.0 for i in range(4)])
            )
    path = directory / (folder or "checkpoint")
    tokenizer.save_pretrained(path)
    model.save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    return tiny_checkpoint(tmp_path_factory.mktemp("longformer"), PERMUTED)


@pytest.fixture(scope="module")
def backend(checkpoint):
    return CrossEncoderBackend({"model_path": str(checkpoint), "device": "cpu", "batch_size": 32})


def test_the_tiny_longformer_runs_end_to_end_into_valid_suggestions(backend):
    topic = small_topic()
    suggestions = backend.suggest(topic)
    covered = sorted(m for c in suggestions.clusters for m in c.mentions)
    assert covered == list(range(len(topic.mentions)))
    graph = nx.DiGraph([(e.parent, e.child) for e in suggestions.edges])
    assert nx.is_directed_acyclic_graph(graph)
    assert all(graph.in_degree(n) <= 1 for n in graph)


def test_every_ordered_pair_gets_a_probability_distribution(backend):
    topic = small_topic()
    n = len(topic.mentions)
    probabilities = backend.pair_probabilities(topic)
    assert probabilities.shape == (n, n, 4)
    off_diagonal = ~np.eye(n, dtype=bool)
    assert np.allclose(probabilities[off_diagonal].sum(axis=1), 1.0, atol=1e-5)
    assert np.all(probabilities[np.eye(n, dtype=bool)] == 0)


def test_pairs_carry_both_marked_contexts_and_global_attention_on_the_first_token_and_markers(
    backend,
):
    topic = build_topic()
    first, second, inputs = next(backend.batches(topic))
    ids = inputs["input_ids"]
    assert ids.shape == inputs["global_attention_mask"].shape == inputs["attention_mask"].shape
    assert ids.shape[0] == len(first) == len(second)
    markers = (ids == backend.start_id) | (ids == backend.end_id)
    expected = markers.clone()
    expected[:, 0] = True
    assert torch.equal(inputs["global_attention_mask"].bool(), expected)
    assert ((ids == backend.start_id).sum(dim=1) == 2).all()
    assert ((ids == backend.end_id).sum(dim=1) == 2).all()
    text = backend.tokenizer.decode(ids[0], skip_special_tokens=False)
    # SciCo's concatenation: [CLS] A [SEP] [SEP] B [SEP] and the tokenizer's closing [SEP]
    assert text.startswith("[CLS]")
    assert text.count("[SEP]") == 4


def test_a_marked_context_wraps_the_mention_and_fits_half_the_model(backend):
    topic = build_topic()
    contexts = backend.contexts(topic)
    assert contexts[0] == (
        "We train a <m> neural machine translation </m> model with attention on WMT data . [SEP]"
    )
    assert backend.max_length == 129  # 130 positions, numbered from pad_token_id + 1 = 1


def test_outputs_are_read_by_their_label_names(tmp_path):
    path = tiny_checkpoint(tmp_path, PERMUTED, favour=2)  # output 2 is named "coref"
    backend = CrossEncoderBackend({"model_path": str(path), "device": "cpu"})
    assert backend.label_note is None
    topic = build_topic(MT_DOCUMENTS[:2], [])
    probabilities = backend.pair_probabilities(topic)
    assert probabilities[0, 1, COREF] > 0.99
    assert [c.mentions for c in backend.suggest(topic).clusters] == [
        list(range(len(topic.mentions)))
    ]


def test_generic_label_names_fall_back_to_scico_order_with_a_note():
    order, note = label_order({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2", 3: "LABEL_3"}, 4)
    assert order == [UNRELATED, COREF, PARENT, CHILD]
    assert note
    assert "SciCo's order" in note
    assert "LABEL_0" in note
    assert label_order(PERMUTED, 4) == ([CHILD, UNRELATED, COREF, PARENT], None)
    with pytest.raises(ValueError, match="4 classes"):
        label_order({0: "a", 1: "b"}, 2)


def test_a_checkpoint_without_mention_markers_is_refused(tmp_path):
    path = tiny_checkpoint(tmp_path, PERMUTED)
    plain = AutoTokenizer.from_pretrained(tmp_path / "tokenizer-source", local_files_only=True)
    plain.save_pretrained(path)
    with pytest.raises(ValueError, match="no <m> token"):
        CrossEncoderBackend({"model_path": str(path), "device": "cpu"})


def test_suggestions_are_scicos_released_decoding_of_the_pair_probabilities(tmp_path):
    from tests.modelserve.backends.test_scico_decoding import as_rows
    from tests.modelserve.scico_reference import multiclass_inference

    path = tiny_checkpoint(tmp_path, PERMUTED)
    topic = small_topic()
    for decoding, agg, hypernym in (("scico-released", 0.6, 0.4), ("paper", 0.75, 0.25)):
        backend = CrossEncoderBackend(
            {
                "model_path": str(path),
                "device": "cpu",
                "decoding": decoding,
                "agg_threshold": agg,
                "hypernym_threshold": hypernym,
            }
        )
        probabilities = backend.pair_probabilities(topic)
        n = len(topic.mentions)
        labels, relations = multiclass_inference(
            n,
            as_rows(probabilities),
            agg_threshold=agg,
            hypernym_threshold=hypernym,
            descending=decoding == "paper",
        )
        members = {x: frozenset(m for m in range(n) if labels[m] == x) for x in set(labels)}
        suggestions = backend.suggest(topic)
        clusters = [frozenset(c.mentions) for c in suggestions.clusters]
        assert set(clusters) == set(members.values())
        assert {(clusters[e.parent], clusters[e.child]) for e in suggestions.edges} == {
            (members[p], members[c]) for p, c in relations
        }


def test_an_unknown_decoding_is_refused(checkpoint):
    with pytest.raises(ValueError, match="decoding must be one of"):
        CrossEncoderBackend({"model_path": str(checkpoint), "decoding": "best"})
