"""The mention tagger on the packaged MiniLM: a tiny real training run, saving, loading, and the
chemu backend proposing mentions (and links naming them) on a topic that has none."""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

import pytest
import torch

from corefscore.corpus import LINK_TYPES, TopicData
from corefscore.formats.chemu import read_chemu_jsonlines
from modelserve.backends import chemu_mentions, mention_tagger
from modelserve.backends.chemu import ChemuBackend
from modelserve.backends.chemu_training import train_chemu
from tests.paths import CHEMU_TRAIN

torch.set_num_threads(1)
SNIPPETS = 10


@functools.cache
def tiny_models(root: Path) -> tuple[Path, Path, dict, list[tuple[float, str]]]:
    """A link model and a mention tagger trained in seconds on the first snippets (once per
    test session; test_predict_raw uses them too)."""
    if not CHEMU_TRAIN.is_file():
        pytest.fail("../shared/data is not beside the checkout: the tests read the real data there")
    every = read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics
    topics = every[:SNIPPETS]
    links, mentions = root / "chemu", root / "chemu-mentions"
    # the link model trains in seconds on more snippets (pair features, no encoder)
    train_chemu(every[:60], links, holdout_fraction=0.0, epochs=3, device="cpu", log=lambda _: None)
    reports: list[tuple[float, str]] = []
    summary = chemu_mentions.train_chemu_mentions(
        topics,
        mentions,
        holdout_fraction=0.2,
        epochs=25,
        hidden=64,
        device="cpu",
        precision="auto",  # bfloat16 where the CPU has it: the quicker path, tested too
        progress=lambda fraction, message: reports.append((fraction, message)),
        log=lambda _: None,
    )
    return links, mentions, summary, reports


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    return tiny_models(tmp_path_factory.getbasetemp() / "tiny-chemu-models")


@pytest.fixture(scope="module")
def snippets():
    return read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[:SNIPPETS]


def test_a_tiny_training_run_saves_a_complete_tagger_with_held_out_scores(models):
    _, mentions_dir, summary, _ = models
    saved = mention_tagger.load(mentions_dir, "cpu")
    # what it trained in is what it predicts in (bfloat16 only where the CPU has it)
    assert saved.precision == mention_tagger.resolve_precision("auto", torch.device("cpu"))
    assert saved.config["precision"] == saved.precision
    assert chemu_mentions.mentions_trained(mentions_dir)
    scores = summary["scores"]
    assert set(scores["mentions"]) == {"exact", "relaxed"}
    assert 0.0 <= scores["mentions"]["exact"]["f1"] <= scores["mentions"]["relaxed"]["f1"] <= 1.0


def test_training_reports_its_progress_from_zero_to_one(models):
    _, _, _, reports = models
    fractions = [fraction for fraction, _ in reports]
    assert fractions[0] == 0.0
    assert fractions[-1] == 1.0
    assert fractions == sorted(fractions)
    assert len(fractions) > 5
    assert any("epoch" in message for _, message in reports)


def test_a_loaded_tagger_finds_most_mentions_of_a_snippet_it_was_trained_on(models, snippets):
    _, mentions_dir, _, _ = models
    tagger = chemu_mentions.load_mentions(mentions_dir, "cpu")
    assert tagger is chemu_mentions.load_mentions(mentions_dir, "cpu")  # loaded once
    seen = next(t for t in snippets if t.external_id not in summary_holdout(mentions_dir))
    found = chemu_mentions.found_mentions(tagger, seen)
    tokens = len(seen.documents[0].tokens)
    for mention in found:
        assert mention.document == 0
        assert 0.0 <= mention.score <= 1.0
        assert all(0 <= start <= end < tokens for start, end in mention.spans)
        assert mention.spans == sorted(mention.spans)
    gold = {m.spans for m in seen.mentions}
    hits = {tuple(tuple(span) for span in m.spans) for m in found} & gold
    assert len(hits) >= len(gold) / 2


def summary_holdout(directory: Path) -> set[str]:
    tagger = mention_tagger.load(directory, "cpu")
    return set(tagger.config["holdout_topics"])


def test_the_chemu_backend_proposes_mentions_and_links_naming_them_on_a_topic_without_mentions(
    models, snippets
):
    links_dir, mentions_dir, _, _ = models
    backend = ChemuBackend({"model_dir": str(links_dir), "mentions_dir": str(mentions_dir)})
    raw = TopicData(snippets[0].external_id, snippets[0].documents, [])
    suggestions = backend.suggest(raw)
    assert len(suggestions.mentions) >= 5
    assert suggestions.links, "links between the proposed mentions"
    starts = [m.spans[0][0] for m in suggestions.mentions]
    for link in suggestions.links:
        assert link.type in LINK_TYPES
        assert 0 <= link.antecedent < len(suggestions.mentions)
        assert 0 <= link.anaphor < len(suggestions.mentions)
        assert starts[link.antecedent] < starts[link.anaphor]
    transformed = [link for link in suggestions.links if link.type == "TRANSFORMED"]
    assert max(Counter(link.anaphor for link in transformed).values(), default=0) <= 1


def test_the_backend_proposes_only_mentions_the_topic_lacks_and_numbers_them_after_its_own(
    models, snippets
):
    links_dir, mentions_dir, _, _ = models
    backend = ChemuBackend({"model_dir": str(links_dir), "mentions_dir": str(mentions_dir)})
    everything = backend.suggest(TopicData(snippets[0].external_id, snippets[0].documents, []))
    kept = everything.mentions[0]
    from corefscore.corpus import MentionData

    existing = MentionData(kept.document, tuple(tuple(span) for span in kept.spans))
    topic = TopicData(snippets[0].external_id, snippets[0].documents, [existing])
    suggestions = backend.suggest(topic)
    proposed = [tuple(tuple(span) for span in m.spans) for m in suggestions.mentions]
    assert existing.spans not in proposed
    assert len(proposed) == len(everything.mentions) - 1
    assert all(0 <= link.anaphor <= len(proposed) for link in suggestions.links)


def test_without_a_tagger_the_backend_links_the_given_mentions_only(models, snippets, tmp_path):
    links_dir, _, _, _ = models
    backend = ChemuBackend({"model_dir": str(links_dir), "mentions_dir": str(tmp_path)})
    topic = TopicData(snippets[0].external_id, snippets[0].documents, snippets[0].mentions)
    suggestions = backend.suggest(topic)
    assert suggestions.mentions == []
    assert suggestions.links
    assert suggestions.pending == ["mentions"]  # the run's message says they are not ready
    asked_not_to = ChemuBackend(
        {"model_dir": str(links_dir), "mentions_dir": str(tmp_path), "propose_mentions": False}
    )
    assert asked_not_to.suggest(topic).pending == []
