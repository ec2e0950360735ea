"""Several chemu models as one (issue 27.2): mentions kept by a majority of the taggers, links
decoded once from the link models' mean pair probabilities.

- `vote_mentions(found)`: per document, the (spans, score) lists of each tagger -> the spans
  that at least half of them (rounded up past a tie: 2 of 3) found exactly, scored by the
  mean of every tagger's score (0 where a tagger did not find it).
- `ensemble_links(models, topic, threshold)`: every model scores the same candidate pairs
  (the features depend on the topic alone); the mean probabilities go through the usual
  decoding (`chemu_linking.decode`: best type over the threshold, TRANSFORMED one-to-one,
  implied coreference left out), so the result keeps the ChEMU rules a raw vote of links
  could break.

Pure: no Django. Held-out figures: docs/mentions.md ("Raw text: the levers").
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from corefscore.corpus import TopicData
from modelserve.backends.base import LinkSuggestion
from modelserve.backends.biohd import Spans
from modelserve.backends.chemu_linking import decode, score_pairs
from modelserve.backends.chemu_model import ChemuModel

Found = list[tuple[Spans, float]]


def vote_mentions(found: Sequence[Found], min_votes: int | None = None) -> Found:
    """The spans found by at least `min_votes` of the taggers (default: a majority)."""
    needed = len(found) // 2 + 1 if min_votes is None else min_votes
    votes: dict[Spans, list[float]] = {}
    for mentions in found:
        for spans, score in mentions:
            votes.setdefault(spans, []).append(score)
    kept = [
        (spans, round(sum(scores) / len(found), 6))
        for spans, scores in votes.items()
        if len(scores) >= needed
    ]
    return sorted(kept, key=lambda item: (item[0][0][0], item[0]))


def ensemble_links(
    models: Sequence[ChemuModel], topic: TopicData, threshold: float | None = None
) -> list[LinkSuggestion]:
    """Links for every document of the topic from the models' mean pair probabilities."""
    threshold = float(models[0].config["threshold"] if threshold is None else threshold)
    links: list[LinkSuggestion] = []
    for document in range(len(topic.documents)):
        scored = [score_pairs(model, topic, document) for model in models]
        features, pairs, _ = scored[0]
        mean = np.mean([probabilities for _, _, probabilities in scored], axis=0)
        links += decode(pairs, mean, features.order, threshold)
    return links
