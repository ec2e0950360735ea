"""The link model taught on predicted mentions as well as gold ones: a jackknife over folds.

The link model is used on the tagger's mentions, whose boundaries are wrong in about one case
of ten, but trained on gold mentions only, so it never sees a pair whose mention is cut short
or spurious. A tagger cannot predict its own training snippets as it predicts new ones (it
has learnt them), so the training snippets are split into folds and each fold's mentions come
from a tagger trained on the other folds. Those snippets, with their predicted mentions, are
added to the gold ones.

- `with_predicted_mentions(topic, found)`: the topic with the found mentions in place of its
  gold ones; a gold link is kept where both its ends were found exactly (COREFERENCE over the
  chains' transitive closure, as scoring expands it, so a chain missing its middle mention
  still teaches the link across it); every other pair is taught as no link.
- `jackknife_topics(topics, ...)`: every topic once, with the mentions of the tagger that did
  not see it.

Pure: no Django. Held-out figures: docs/models.md ("ChEMU from raw text").
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import torch

from corefscore.corpus import LinkData, MentionData, TopicData
from modelserve.arrays import FloatArray
from modelserve.backends import biohd, mention_tagger
from modelserve.backends.chemu_mentions import (
    EPOCHS,
    HIDDEN,
    corrected,
    documents_of,
    encoded,
    train_tagger,
)
from modelserve.backends.mention_features import WordEncoder
from modelserve.backends.vector_cache import VectorCache

FOLDS = 2  # each fold's tagger learns from the other half: 2 taggers, the cost of one full one
PREDICTED = "#predicted"  # appended to a jackknifed topic's id, to tell it from its gold copy


def _coreference_closure(topic: TopicData) -> set[tuple[int, int]]:
    antecedents: dict[int, set[int]] = {}
    for link in topic.links:
        if link.type == "COREFERENCE":
            antecedents.setdefault(link.anaphor, set()).add(link.antecedent)
    closure = set()
    for anaphor, direct in antecedents.items():
        reached: set[int] = set()
        stack = list(direct)
        while stack:
            node = stack.pop()
            if node not in reached and node != anaphor:
                reached.add(node)
                stack.extend(antecedents.get(node, ()))
        closure |= {(anaphor, antecedent) for antecedent in reached}
    return closure


def with_predicted_mentions(
    topic: TopicData, found: list[list[tuple[biohd.Spans, float]]]
) -> TopicData:
    """A copy of the gold topic whose mentions are the found ones (one list per document) and
    whose links are the gold links between mentions found exactly."""
    mentions = [
        MentionData(document, tuple((start, end) for start, end in spans))
        for document, spans_found in enumerate(found)
        for spans, _ in spans_found
    ]
    index = {mention.key: k for k, mention in enumerate(mentions)}
    gold = [index.get(mention.key) for mention in topic.mentions]
    edges = {(link.type, link.anaphor, link.antecedent) for link in topic.links}
    edges |= {("COREFERENCE", a, b) for a, b in _coreference_closure(topic)}
    links = [
        LinkData(kind, gold[anaphor], gold[antecedent])  # type: ignore[arg-type]
        for kind, anaphor, antecedent in sorted(edges)
        if gold[anaphor] is not None and gold[antecedent] is not None
    ]
    result = copy.copy(topic)
    result.external_id = topic.external_id + PREDICTED
    result.mentions, result.links, result.clusters = mentions, links, []
    return result


def folds_of(topics: list[TopicData], folds: int, seed: int) -> list[list[TopicData]]:
    """The topics in `folds` seeded groups of (nearly) equal size."""
    shuffled = topics[:]
    random.Random(seed).shuffle(shuffled)
    return [shuffled[k::folds] for k in range(folds)]


def jackknife_topics(
    topics: list[TopicData],
    *,
    folds: int = FOLDS,
    seed: int = 0,
    epochs: int = EPOCHS,
    hidden: int = HIDDEN,
    encoder: WordEncoder,
    encoder_path: str | None = None,
    device: torch.device,
    vector_cache: dict[tuple[str, int], FloatArray] | None = None,
    store: VectorCache | None = None,
    progress: Callable[[int, int, int, float], None] | None = None,
    tagger_options: dict[str, Any] | None = None,
) -> list[TopicData]:
    """Every topic with the mentions a tagger trained on the other folds finds in it.
    `progress(fold, folds, epoch, loss)` after every epoch of every fold's tagger."""
    cache = {} if vector_cache is None else vector_cache
    groups = folds_of(topics, folds, seed)
    predicted: list[TopicData] = []
    for k, held in enumerate(groups):
        if not held:
            continue
        rest = [topic for j, group in enumerate(groups) if j != k for topic in group]

        def on_epoch(epoch: int, loss: float, fold: int = k) -> None:
            if progress is not None:
                progress(fold, folds, epoch, loss)

        tagger = train_tagger(
            rest,
            vectors=encoded(encoder, rest, cache, store),
            encoder=encoder,
            seed=seed + k,
            epochs=epochs,
            layers=2,
            hidden=hidden,
            device=device,
            encoder_path=encoder_path,
            on_epoch=on_epoch,
            **(tagger_options or {}),
        )
        documents = documents_of(held)
        found = mention_tagger.predict(
            tagger.net,
            tagger.sequences(documents, encoded(encoder, held, cache, store)),
            device,
            precision=tagger.precision,
        )
        found = corrected(tagger, documents, found)
        position = 0
        for topic in held:
            count = len(topic.documents)
            predicted.append(with_predicted_mentions(topic, found[position : position + count]))
            position += count
    return predicted
