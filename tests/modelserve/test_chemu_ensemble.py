"""Several chemu models as one (issue 27.2): mentions by majority vote, links from the link
models' mean probabilities through the usual decoding."""

from __future__ import annotations

import pytest

from corefscore.formats.chemu import read_chemu_jsonlines
from modelserve.backends import chemu_model
from modelserve.backends.chemu_ensemble import ensemble_links, vote_mentions
from modelserve.backends.chemu_linking import score_pairs, suggest_links
from modelserve.backends.chemu_model import CLASSES
from modelserve.backends.chemu_training import train_chemu
from tests.paths import CHEMU_TRAIN


def test_a_mention_is_kept_when_a_majority_of_the_taggers_found_it_exactly():
    one, two, three = ((0, 1),), ((3, 5),), ((7, 7), (9, 9))
    found = [[(one, 0.9), (two, 0.6)], [(one, 0.6), (three, 0.9)], [(two, 0.3), (three, 0.6)]]
    # every span twice of three: kept, scored by the mean over all three taggers
    assert vote_mentions(found) == [(one, 0.5), (two, 0.3), (three, 0.5)]
    assert vote_mentions(found, min_votes=3) == []
    assert vote_mentions(found[:1] + [[]] * 2) == []  # one vote of three is not a majority


@pytest.fixture(scope="module")
def link_models(tmp_path_factory):
    topics = read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[:40]
    models = []
    for seed in (0, 1):
        folder = tmp_path_factory.mktemp(f"links-{seed}")
        train_chemu(topics, folder, seed=seed, holdout_fraction=0.0, device="cpu", log=print)
        models.append(chemu_model.load(folder, "cpu"))
    return models


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
