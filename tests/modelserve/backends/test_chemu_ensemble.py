"""Several chemu models as one: mentions by majority vote, links from the link models' mean
probabilities through the usual decoding; saved beside the default link model, served by the
backend, and trained (with link models taught on jackknifed mentions too)."""

from __future__ import annotations

import copy
import shutil

import pytest

from corefscore.corpus import DocumentData, LinkData, MentionData, TopicData
from corefscore.formats.chemu import read_chemu_jsonlines
from modelserve.backends import chemu_model, mention_tagger
from modelserve.backends.chemu import ChemuBackend
from modelserve.backends.chemu_ensemble import (
    MEMBERS,
    ensemble_from_text,
    ensemble_links,
    load_ensemble,
    save_manifest,
    vote_mentions,
)
from modelserve.backends.chemu_jackknife import with_predicted_mentions
from modelserve.backends.chemu_linking import score_pairs, suggest_links
from modelserve.backends.chemu_mentions import suggest_from_text, train_chemu_mentions
from modelserve.backends.chemu_model import CLASSES
from modelserve.backends.chemu_training import split_topics, train_chemu
from modelserve.training.chemu_members import train_chemu_ensemble
from tests.paths import CHEMU_TRAIN


def test_a_mention_is_kept_when_a_majority_of_the_taggers_found_it_exactly():
    one, two, three = ((0, 1),), ((3, 5),), ((7, 7), (9, 9))
    found = [[(one, 0.9), (two, 0.6)], [(one, 0.6), (three, 0.9)], [(two, 0.3), (three, 0.6)]]
    # every span twice of three: kept, scored by the mean over all three taggers
    assert vote_mentions(found) == [(one, 0.5), (two, 0.3), (three, 0.5)]
    assert vote_mentions(found, min_votes=3) == []
    assert vote_mentions(found[:1] + [[]] * 2) == []  # one vote of three is not a majority


@pytest.fixture(scope="module")
def link_folders(tmp_path_factory):
    topics = read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[:40]
    folders = []
    for seed in (0, 1):
        folder = tmp_path_factory.mktemp(f"links-{seed}")
        train_chemu(topics, folder, seed=seed, holdout_fraction=0.0, device="cpu", log=print)
        folders.append(folder)
    return folders


@pytest.fixture(scope="module")
def link_models(link_folders):
    return [chemu_model.load(folder, "cpu") for folder in link_folders]


def tiny_tagger(topics, folder, seed):
    train_chemu_mentions(
        topics,
        folder,
        seed=seed,
        epochs=15,
        hidden=32,
        holdout_fraction=0.0,
        device="cpu",
        log=lambda line: None,
    )
    return folder


@pytest.fixture(scope="module")
def ensemble_dir(link_folders, tmp_path_factory):
    """A link model's folder with an ensemble of two link models and two tiny taggers (seeds 0
    and 1, on the first two snippets) saved in it."""
    topics = read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[:2]
    root = tmp_path_factory.mktemp("ensemble") / "chemu"
    shutil.copytree(link_folders[0], root)
    shutil.copytree(link_folders[1], root / MEMBERS / "links-1")
    taggers = [tiny_tagger(topics, root / MEMBERS / f"mentions-{seed}", seed) for seed in (0, 1)]
    save_manifest(root, [root, root / MEMBERS / "links-1"], taggers)
    return root


def test_the_ensemble_of_one_model_links_as_that_model_and_two_models_differ(link_models):
    topic = read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[50]
    first, second = link_models
    alone = suggest_links(first, topic)
    assert alone, "the test needs a topic the model links"
    key = [(link.type, link.anaphor, link.antecedent, link.score) for link in alone]
    same = ensemble_links([first, first], topic)
    assert [(link.type, link.anaphor, link.antecedent, link.score) for link in same] == key
    mixed = ensemble_links([first, second], topic)
    assert mixed
    probabilities = []
    for model in link_models:
        features, pairs, rows = score_pairs(model, topic)
        order = features.order
        probabilities.append(
            {(order[i], order[j]): row for (i, j), row in zip(pairs, rows, strict=True)}
        )
    for link in mixed:  # scored by the mean of the two models' probabilities of its type
        pair, column = (link.anaphor, link.antecedent), CLASSES.index(link.type)
        mean = sum(float(p[pair][column]) for p in probabilities) / 2
        assert link.score == pytest.approx(mean, abs=1e-5)


def keys(links):
    return [(link.type, link.anaphor, link.antecedent, link.score) for link in links]


def test_the_backend_serves_the_ensemble_saved_beside_its_link_model(ensemble_dir, link_models):
    topic = read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[50]
    single = suggest_links(link_models[0], topic)
    both = ensemble_links(link_models, topic)
    assert keys(single) != keys(both), "the test needs models that differ on this topic"

    given = {"model_dir": str(ensemble_dir), "device": "cpu", "propose_mentions": False}
    assert keys(ChemuBackend(given).suggest(topic).links) == keys(both)
    alone = ChemuBackend(given | {"ensemble": False}).suggest(topic).links
    assert keys(alone) == keys(single)

    # mentions to find: the taggers' voted ones, linked to the topic's own by the averaged models
    raw = copy.copy(read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[0])
    raw.mentions, raw.links = raw.mentions[::2], []
    ensemble = load_ensemble(ensemble_dir, "cpu")
    assert ensemble is not None
    assert len(ensemble.taggers) == 2
    wanted = ensemble_from_text(ensemble.taggers, ensemble.link_models, raw)
    assert wanted.mentions
    assert wanted.links
    found = ChemuBackend({"model_dir": str(ensemble_dir), "device": "cpu"}).suggest(raw)
    assert [(m.spans, m.score) for m in found.mentions] == [
        (m.spans, m.score) for m in wanted.mentions
    ]
    assert keys(found.links) == keys(wanted.links)
    one = suggest_from_text(ensemble.taggers[0], link_models[0], raw)
    assert (keys(one.links), [m.spans for m in one.mentions]) != (
        keys(found.links),
        [m.spans for m in found.mentions],
    )


def test_retraining_the_link_model_in_its_folder_drops_the_ensemble_built_beside_the_old_one(
    ensemble_dir, tmp_path
):
    root = tmp_path / "chemu"
    shutil.copytree(ensemble_dir, root)
    assert load_ensemble(root, "cpu") is not None
    topics = read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[:10]
    train_chemu(topics, root, holdout_fraction=0.0, epochs=1, device="cpu", log=print)
    assert load_ensemble(root, "cpu") is None


def test_a_predicted_snippet_keeps_the_gold_links_between_the_mentions_found_exactly():
    document = DocumentData("d", [f"w{k}" for k in range(12)])
    a, b, c, d = (((0, 1),), ((3, 3),), ((5, 6),), ((8, 9),))
    gold = TopicData(
        "t",
        documents=[document],
        mentions=[MentionData(0, spans) for spans in (a, b, c, d)],
        links=[
            LinkData("COREFERENCE", 1, 0),
            LinkData("COREFERENCE", 2, 1),
            LinkData("WORK_UP", 3, 2),
        ],
    )
    # b is missed, c's end is cut short, a spurious mention is found
    found = [[(a, 0.9), (((5, 5),), 0.6), (d, 0.8), (((10, 11),), 0.7)]]
    predicted = with_predicted_mentions(gold, found)
    assert predicted.external_id == "t#predicted"
    assert [m.spans for m in predicted.mentions] == [a, ((5, 5),), d, ((10, 11),)]
    assert predicted.links == []  # no gold link joins two mentions found exactly
    found = [[(a, 0.9), (c, 0.6), (d, 0.8)]]
    predicted = with_predicted_mentions(gold, found)
    # c -> a is in the chain's closure (through the missed b), d -> c is a gold link
    assert sorted((link.type, link.anaphor, link.antecedent) for link in predicted.links) == [
        ("COREFERENCE", 1, 0),
        ("WORK_UP", 2, 1),
    ]
    assert len(gold.mentions) == 4  # the gold topic is left as it was


def test_the_ensemble_trains_beside_the_default_models_with_jackknifed_link_models(tmp_path):
    topics = read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[:16]
    root, tagger_dir = tmp_path / "chemu", tmp_path / "chemu-mentions"
    train_chemu(topics, root, seed=0, epochs=1, device="cpu", log=print)  # 15 % held out
    tiny_tagger(topics[:2], tagger_dir, 0)
    done = train_chemu_ensemble(
        topics,
        root,
        tagger_dir,
        seeds=(10,),
        jackknife=True,
        folds=2,
        epochs=2,
        hidden=16,
        device="cpu",
    )
    assert done["links"] == 2
    assert done["taggers"] == 2
    ensemble = load_ensemble(root, "cpu")
    assert ensemble is not None
    assert ensemble.manifest["links"] == [f"{MEMBERS}/links-0", f"{MEMBERS}/links-10"]
    assert ensemble.manifest["mentions"] == [f"{MEMBERS}/mentions-0", f"{MEMBERS}/mentions-10"]
    assert ensemble.manifest["jackknife"] is True
    usable = [t for t in topics if t.links and len(t.mentions) >= 2]
    train, _ = split_topics(usable, 0.15, 0)  # the first link model's training share
    # every link model learnt from those snippets, and from their jackknifed copies too
    assert done["jackknifed"] == len(train)
    assert all(m.config["train_topics"] >= len(train) for m in ensemble.link_models)
    assert ensemble.taggers[1].config["train_topics"] == len(train)
    assert mention_tagger.is_complete(root / MEMBERS / "mentions-0")  # a copy of the tagger


def test_predict_from_raw_text_uses_the_ensemble_saved_with_the_default_link_model(ensemble_dir):
    from modelserve.backends.chemu_mentions import without_mentions
    from modelserve.prediction import PREDICTORS, PredictOptions

    raw = without_mentions(read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[0])
    ensemble = load_ensemble(ensemble_dir, "cpu")
    assert ensemble is not None
    wanted = ensemble_from_text(ensemble.taggers, ensemble.link_models, raw)
    assert wanted.mentions
    options = PredictOptions(models_dir=ensemble_dir.parent, device="cpu")
    (predicted,) = PREDICTORS["chemu"].raw([raw], options)  # no chemu-mentions folder there
    assert [m.spans for m in predicted.mentions] == [
        tuple(map(tuple, m.spans)) for m in wanted.mentions
    ]
    assert [(link.type, link.anaphor, link.antecedent) for link in predicted.links] == [
        (link.type, link.anaphor, link.antecedent) for link in wanted.links
    ]
    single = PredictOptions(
        models_dir=ensemble_dir.parent, device="cpu", params={"ensemble": False}
    )
    with pytest.raises(Exception, match="no trained mention tagger"):
        PREDICTORS["chemu"].raw([raw], single)  # the single models: no tagger in that folder
