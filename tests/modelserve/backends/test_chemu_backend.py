"""The chemu backend: a small real model trained on ChEMU-Ref snippets, loaded and asked for
links."""

from collections import Counter

import numpy as np
import pytest
import torch

from corefscore.corpus import LINK_TYPES, DocumentData, LinkData, MentionData, TopicData
from corefscore.formats.chemu import read_chemu_jsonlines
from modelserve.backends import get_backend
from modelserve.backends.chemu import ChemuBackend, decode, is_trained, suggest_links
from modelserve.backends.chemu_features import SnippetFeatures
from modelserve.backends.chemu_model import CLASSES, load
from modelserve.backends.chemu_training import pair_labels, train_chemu
from tests.paths import CHEMU_TRAIN

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def snippets():
    if not CHEMU_TRAIN.is_file():
        pytest.fail(
            "../shared/data is not beside the checkout: the tests read the real data there "
            "(CI has it)"
        )
    return read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[:80]


@pytest.fixture(scope="module")
def trained(snippets, tmp_path_factory):
    out = tmp_path_factory.mktemp("chemu")
    lines: list[str] = []
    result = train_chemu(
        snippets[:60], out, seed=0, holdout_fraction=0.2, epochs=3, device="cpu", log=lines.append
    )
    return out, result, lines


def test_training_on_sixty_snippets_saves_a_complete_model_with_its_held_out_scores(trained):
    out, result, lines = trained
    assert is_trained(out)
    assert result["train_topics"] == 48
    assert result["holdout_topics"] == 12
    assert 0.0 <= result["scores"]["exact"]["overall"]["f1"] <= 1.0
    assert set(result["scores"]["exact"]["per_type"]) == set(LINK_TYPES)
    assert any(line.startswith("held-out overall") for line in lines)
    assert result["train_seconds"] < 60


def test_a_trained_model_suggests_links_that_obey_the_chemu_rules(trained, snippets):
    out, _, _ = trained
    backend = ChemuBackend({"model_dir": str(out), "device": "cpu"})
    unseen = [TopicData(t.external_id, t.documents, t.mentions) for t in snippets[60:]]
    all_links = []
    for topic in unseen:
        links = backend.suggest(topic).links
        all_links += links
        for link in links:
            anaphor, antecedent = topic.mentions[link.anaphor], topic.mentions[link.antecedent]
            assert link.type in LINK_TYPES
            assert link.anaphor != link.antecedent
            assert antecedent.spans[0][0] < anaphor.spans[0][0]
            assert 0.0 <= link.score <= 1.0
        transformed = [link for link in links if link.type == "TRANSFORMED"]
        assert max(Counter(link.anaphor for link in transformed).values(), default=0) <= 1
        assert max(Counter(link.antecedent for link in transformed).values(), default=0) <= 1
        assert len({(link.anaphor, link.antecedent) for link in links}) == len(links)
    assert len(all_links) > 50  # it does predict: about 14 gold links per snippet


def test_the_model_finds_most_gold_links_of_unseen_snippets(trained, snippets):
    out, _, _ = trained
    model = load(out, "cpu")
    gold = found = 0
    for topic in snippets[60:]:
        predicted = {
            (link.type, link.anaphor, link.antecedent) for link in suggest_links(model, topic)
        }
        expected = {(link.type, link.anaphor, link.antecedent) for link in topic.links}
        gold += len(expected)
        found += len(expected & predicted)
    assert found / gold > 0.5


def test_the_registry_builds_the_chemu_backend_by_name(trained):
    out, _, _ = trained
    backend = get_backend("chemu", {"model_dir": str(out), "device": "cpu"})
    assert isinstance(backend, ChemuBackend)
    assert backend.name == "chemu"


def test_a_model_is_loaded_once_per_process(trained):
    out, _, _ = trained
    assert load(out, "cpu") is load(str(out), torch.device("cpu"))


def test_training_twice_with_the_same_seed_gives_the_same_model(snippets, tmp_path):
    options = {
        "seed": 3,
        "holdout_fraction": 0.25,
        "epochs": 1,
        "device": "cpu",
        "log": lambda _: None,
    }
    first = train_chemu(snippets[:20], tmp_path / "a", **options)
    second = train_chemu(snippets[:20], tmp_path / "b", **options)
    assert first["scores"] == second["scores"]
    weights_a = load(tmp_path / "a", "cpu").scorer.state_dict()
    weights_b = load(tmp_path / "b", "cpu").scorer.state_dict()
    assert all(torch.equal(weights_a[name], weights_b[name]) for name in weights_a)


def test_a_missing_model_is_refused_with_how_to_train_one(tmp_path):
    assert not is_trained(tmp_path)
    with pytest.raises(FileNotFoundError, match="python -m modelserve.train --backend chemu"):
        ChemuBackend({"model_dir": str(tmp_path)})


def test_unknown_parameters_are_refused(trained):
    with pytest.raises(ValueError, match='The chemu backend has no parameter "temperature"'):
        ChemuBackend({"model_dir": str(trained[0]), "temperature": 2})


def test_a_topic_with_one_mention_gets_no_links(trained):
    out, _, _ = trained
    topic = TopicData(
        "one", [DocumentData("one", ["The", "mixture", "."])], [MentionData(0, ((0, 1),))]
    )
    assert ChemuBackend({"model_dir": str(out)}).suggest(topic).links == []


def test_decoding_keeps_transformed_one_to_one_taking_the_likeliest_first():
    # positions: 2 -> 0 and 2 -> 1 compete for anaphor 2; 3 -> 1 competes for antecedent 1.
    pairs = [(2, 0), (2, 1), (3, 1), (3, 0)]
    transformed = CLASSES.index("TRANSFORMED")
    probabilities = np.full((4, len(CLASSES)), 0.02)
    for row, p in zip(range(4), (0.7, 0.9, 0.8, 0.6), strict=True):
        probabilities[row, transformed] = p
    links = decode(pairs, probabilities, order=[10, 11, 12, 13], threshold=0.5)
    assert [(link.anaphor, link.antecedent, link.score) for link in links] == [
        (12, 11, 0.9),
        (13, 10, 0.6),
    ]


def test_decoding_drops_pairs_below_the_threshold_and_keeps_many_work_up_antecedents():
    pairs = [(2, 0), (2, 1), (1, 0)]
    work_up = CLASSES.index("WORK_UP")
    probabilities = np.zeros((3, len(CLASSES)))
    probabilities[:, work_up] = (0.8, 0.7, 0.3)
    probabilities[:, 0] = 1 - probabilities[:, work_up]
    links = decode(pairs, probabilities, order=[0, 1, 2], threshold=0.5)
    assert [(link.type, link.anaphor, link.antecedent) for link in links] == [
        ("WORK_UP", 2, 0),
        ("WORK_UP", 2, 1),
    ]


def test_coreference_chains_are_labelled_on_their_closure():
    tokens = [
        "A",
        "was",
        "added",
        ".",
        "The",
        "solid",
        "was",
        "dried",
        "to",
        "give",
        "the",
        "product",
        ".",
    ]
    mentions = [MentionData(0, ((0, 0),)), MentionData(0, ((4, 5),)), MentionData(0, ((10, 11),))]
    links = [LinkData("COREFERENCE", 2, 1), LinkData("COREFERENCE", 1, 0)]
    topic = TopicData(
        "chain", [DocumentData("chain", tokens, [(0, 4), (4, 13)])], mentions, links=links
    )
    labels = pair_labels(topic, SnippetFeatures(topic))
    coreference = CLASSES.index("COREFERENCE")
    assert labels == {(2, 1): coreference, (1, 0): coreference, (2, 0): coreference}


def test_decoding_leaves_out_coreference_links_that_a_chain_already_gives():
    # 2 -> 1 -> 0 is a chain; 2 -> 0 follows from it (scoring expands chains on both sides).
    pairs = [(1, 0), (2, 0), (2, 1)]
    coreference = CLASSES.index("COREFERENCE")
    probabilities = np.zeros((3, len(CLASSES)))
    probabilities[:, coreference] = (0.9, 0.8, 0.7)
    probabilities[:, 0] = 1 - probabilities[:, coreference]
    links = decode(pairs, probabilities, order=[5, 6, 7], threshold=0.5)
    assert [(link.anaphor, link.antecedent) for link in links] == [(6, 5), (7, 6)]
