"""Generated data: three annotators each perturb a hidden gold independently. Their consensus
is closer to the gold than the best of them on CoNLL F1, and than their mean on hierarchy F1.
(`python -m bench adjudication` prints the same figures.)"""

from __future__ import annotations

import random

import pytest

from adjudication.domain.consensus import consensus
from corefscore.scoring.api import score_scico
from tests.adjudication.consensus_simulation import (
    Perturbation,
    consensus_topic,
    hidden_gold,
    perturbed,
    version_topic,
)

TOKENS = [100, 100, 100, 100]


def scores(gold, topic) -> tuple[float, float]:
    result = score_scico([gold], [topic])
    return result["conll_f1"], result["hierarchy"]["f1"]


@pytest.mark.parametrize("seed", range(10))
def test_the_consensus_of_three_noisy_annotators_beats_each_of_them(seed):
    rng = random.Random(seed)
    gold = hidden_gold(rng, mentions=300)
    annotators = [perturbed(rng, gold, Perturbation()) for _ in range(3)]
    key = version_topic(gold, external_id="t", token_counts=TOKENS)

    mine = scores(key, consensus_topic(consensus(annotators), external_id="t", token_counts=TOKENS))
    theirs = [
        scores(key, version_topic(a, external_id="t", token_counts=TOKENS)) for a in annotators
    ]

    assert mine[0] > max(conll for conll, _ in theirs)
    assert mine[1] > sum(hierarchy for _, hierarchy in theirs) / len(theirs)
