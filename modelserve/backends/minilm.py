"""The default suggester: a frozen sentence encoder and surface cues, no training.

Coreference (SciCo 4.1 without a trained scorer): average-linkage agglomerative clustering on a
mention-by-mention similarity. It mixes two cosine similarities: of the mentions in their
context (span vectors mean-pooled from the encoded document) and of the mention texts alone
(the encoder's own sentence embedding, what MiniLM was trained for). Two surface cues adjust it:
- a pair whose labels are a head and the same head with modifiers (*machine translation* /
  *neural machine translation*) loses `specificity_penalty`: such pairs are usually parent and
  child, and an encoder alone scores them as near-synonyms (SciCo's argument for deciding
  coreference and hierarchy jointly);
- a pair where one label abbreviates the other (*NER* / *named entity recognition*) is at
  least `acronym_similarity` similar: encoders see little in common between an acronym and its
  expansion, and the match is rarely wrong (16 of 16 right on our demo topics).

Hierarchy (SciCo 4.1: greedy, acyclic, single-parent): a parent -> child score between clusters
from two cues, combined as a noisy-or (either alone can propose an edge):
- lexical: the child's label is the parent's with modifiers in front (same head), `lexical.py`;
- semantic: the clusters are related but not coreferent, and the parent is the more general
  one, taken as the one more similar to the rest of the topic (a topic is drawn around a
  concept, so its general concepts sit at its centre).
A lexical cue pointing the other way (the parent's label is a kind of the child's) vetoes it.

Defaults were tuned (path ratio, as SciCo, then CoNLL F1) on the gold at hand: the six curated
demo topics (fixtures/demo/scico_demo.jsonl) and the two CoRefi onboarding topics with gold
clusters (guided_mt, guided_sentiment; their hierarchy edges added by us). That is little
data: they are sensible starting points, to be re-tuned on a project's own adjudicated topics.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from corefscore.corpus import TopicData
from modelserve.arrays import FloatArray
from modelserve.backends.base import Progress, Suggestions, no_progress
from modelserve.backends.decoding import (
    agglomerative_clusters,
    between_clusters,
    cluster_confidences,
    greedy_hierarchy,
    member_confidences,
    to_suggestions,
)
from modelserve.backends.lexical import (
    acronym_pairs,
    cluster_specificity,
    phrase_words,
    specificity_cue,
)
from modelserve.backends.parameters import with_defaults
from modelserve.encoders import MentionEncoder


class MiniLMBackend:
    name = "minilm"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.params = with_defaults(self.name, params)  # parameters.py declares them
        p = self.params
        common = {
            "device": p["device"],
            "max_length": p["max_length"],
            "batch_size": p["batch_size"],
        }
        self.in_context = MentionEncoder(p["encoder_path"], context=p["context"], **common)
        self.alone = MentionEncoder(p["encoder_path"], context="none", **common)

    def similarity(self, topic: TopicData) -> FloatArray:
        """Mention-by-mention cosine similarity, the two views mixed by `phrase_weight`."""
        weight = float(self.params["phrase_weight"])
        similarity = np.zeros((len(topic.mentions),) * 2)
        if weight < 1.0:
            contextual = self.in_context.embed(topic)
            similarity += (1.0 - weight) * (contextual @ contextual.T)
        if weight > 0.0:
            alone = self.alone.embed(topic)
            similarity += weight * (alone @ alone.T)
        n = len(topic.mentions)
        penalty, acronym = (
            float(self.params["specificity_penalty"]),
            float(self.params["acronym_similarity"]),
        )
        if penalty and n > 1:
            phrases = [_phrase(topic, i) for i in range(n)]
            cue = np.array([[specificity_cue(a, b) for b in phrases] for a in phrases])
            similarity -= penalty * np.maximum(cue, cue.T)
        if acronym and n > 1:
            for i, j in acronym_pairs([_tokens(topic, i) for i in range(n)]):
                similarity[i, j] = similarity[j, i] = max(similarity[i, j], acronym)
        return similarity

    def suggest(self, topic: TopicData, *, progress: Progress = no_progress) -> Suggestions:
        progress(0.0, "embedding mentions")
        similarity = self.similarity(topic)
        progress(0.7, "clustering")
        clusters = agglomerative_clusters(similarity, float(self.params["threshold"]))
        confidences = cluster_confidences(similarity, clusters)
        progress(0.85, "building the hierarchy")
        scores = self.hierarchy_scores(topic, clusters, similarity)
        edges = greedy_hierarchy(
            scores,
            float(self.params["hierarchy_threshold"]),
            single_parent=bool(self.params["single_parent"]),
        )
        progress(1.0, "done")
        return to_suggestions(
            clusters, confidences, edges, member_confidences(similarity, clusters)
        )

    def hierarchy_scores(
        self, topic: TopicData, clusters: list[list[int]], similarity: FloatArray
    ) -> FloatArray:
        """K x K: entry (parent, child) in [0, 1]."""
        k = len(clusters)
        if k < 2:
            return np.zeros((k, k))
        phrases = [{_phrase(topic, i) for i in members} for members in clusters]
        lexical = np.array(
            [
                [cluster_specificity(phrases[p], phrases[c]) if p != c else 0.0 for c in range(k)]
                for p in range(k)
            ]
        )
        semantic = self._semantic(clusters, similarity)
        combined = 1.0 - (1.0 - lexical) * (1.0 - semantic)
        combined[lexical.T > 0] = 0.0  # the lexical cue points the other way
        np.fill_diagonal(combined, 0.0)
        return combined

    def _semantic(self, clusters: list[list[int]], similarity: FloatArray) -> FloatArray:
        """Relatedness above the floor, scaled by how much more general the parent is.

        Relatedness: the mean cosine between the clusters mapped from [floor, threshold] to
        [0, 1] (at the clustering threshold two clusters would have merged instead).
        Generality: a cluster's mean similarity to every other mention of the topic; the
        direction weight is 0.5 + the difference, clipped to [0, 1].
        """
        floor, ceiling = float(self.params["semantic_floor"]), float(self.params["threshold"])
        between = between_clusters(similarity, clusters)
        related: FloatArray = np.clip((between - floor) / max(ceiling - floor, 1e-6), 0.0, 1.0)
        n = len(similarity)
        off_diagonal = similarity.sum(axis=1) - np.diag(similarity)
        centrality = np.array([off_diagonal[m].mean() / max(n - 1, 1) for m in clusters])
        direction: FloatArray = np.clip(0.5 + (centrality[:, None] - centrality[None, :]), 0.0, 1.0)
        return related * direction


def _tokens(topic: TopicData, index: int) -> list[str]:
    mention = topic.mentions[index]
    tokens = topic.documents[mention.document].tokens
    return [tokens[w] for start, end in mention.spans for w in range(start, end + 1)]


def _phrase(topic: TopicData, index: int) -> tuple[str, ...]:
    return phrase_words(_tokens(topic, index))
