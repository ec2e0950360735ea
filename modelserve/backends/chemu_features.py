"""Features of (anaphor, antecedent) mention pairs in one ChEMU-style snippet.

Every pair gets a bag of string features (the words of both mentions, the words around
them and between them, distances, text matches, and a few conjunctions of these) and a
short vector of numbers. The classifier in `chemu_model` learns an embedding per string
feature, so no feature here needs a weight of its own.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from corefscore.corpus import TopicData

# Words that end the head phrase of a mention ("the solution of X in Y" -> "solution").
_HEAD_STOPS = {"(", "of", "in", "containing", ",", "was", "were", "with", "from", "to", "and", "as"}
_DETERMINERS = {"the": "the", "a": "a", "an": "a", "this": "the", "said": "the", "these": "the"}
_UNITS = {"g", "mg", "kg", "mmol", "mol", "ml", "l", "ul", "µl", "%", "eq", "equiv", "mmole"}
_DIGITS = re.compile(r"\d+")


def norm_word(word: str) -> str:
    """Lower-case, digits folded to 0, long chemical names cut to their suffix (-amine, -ate)."""
    low = _DIGITS.sub("0", word.lower())
    return "~" + low[-5:] if len(low) > 14 else low


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def bucket(value: int) -> str:
    for limit in (0, 1, 2, 3, 4, 6, 9, 14, 20, 30, 50):
        if value <= limit:
            return str(limit)
    return "50+"


@dataclass
class MentionView:
    """What the features need to know about one mention, computed once per snippet."""

    start: int
    end: int
    words: list[str]
    first: str
    head: str
    det: str
    sentence: int
    has_quantity: bool
    text: str
    prev: list[str]
    next: list[str]


def order_mentions(topic: TopicData, document: int = 0) -> list[int]:
    """Indices of the document's mentions in text order (first token of the first span, then
    the end)."""
    return sorted(
        (i for i, mention in enumerate(topic.mentions) if mention.document == document),
        key=lambda i: (topic.mentions[i].spans[0][0], topic.mentions[i].spans[-1][1], i),
    )


def _sentence_of(sentences: list[tuple[int, int]], tokens: list[str]) -> list[int]:
    """Sentence number of each token: the file's sentences, cut again after every full stop."""
    number, result = 0, []
    boundaries = {start for start, _ in sentences}
    for index, token in enumerate(tokens):
        if index in boundaries and index > 0:
            number += 1
        result.append(number)
        if token == "." and index + 1 < len(tokens) and index + 1 not in boundaries:
            number += 1
    return result


def mention_views(topic: TopicData, indices: list[int], document: int = 0) -> list[MentionView]:
    tokens = topic.documents[document].tokens
    sentence_of = _sentence_of(topic.documents[document].sentences, tokens)
    normed = [norm_word(token) for token in tokens]
    views = []
    for mention in (topic.mentions[i] for i in indices):
        positions = [p for start, end in mention.spans for p in range(start, end + 1)]
        words = [normed[p] for p in positions]
        head = words[-1]
        for index, word in enumerate(words):
            if index > 0 and word in _HEAD_STOPS:
                head = words[index - 1]
                break
        start, end = mention.spans[0][0], mention.spans[-1][1]
        views.append(
            MentionView(
                start=start,
                end=end,
                words=words,
                first=words[0],
                head=_stem(head),
                det=_DETERMINERS.get(words[0], "none"),
                sentence=sentence_of[start],
                has_quantity=any(word in _UNITS for word in words),
                text=" ".join(tokens[p].lower() for p in positions),
                prev=[normed[p] for p in range(max(0, start - 3), start)][::-1],
                next=normed[end + 1 : end + 4],
            )
        )
    return views


class SnippetFeatures:
    """Pair features for the mentions of one document (a ChEMU snippet).

    `order[k]` is the topic's index of the k-th mention in text order; `pair(i, j)` and
    `candidate_pairs()` speak of these text-order positions.
    """

    def __init__(self, topic: TopicData, document: int = 0):
        self.order = order_mentions(topic, document)
        self.views = mention_views(topic, self.order, document)
        self.normed = [norm_word(token) for token in topic.documents[document].tokens]

    def candidate_pairs(self) -> list[tuple[int, int]]:
        """(anaphor, antecedent) positions where the antecedent starts strictly earlier."""
        views = self.views
        return [
            (i, j) for i in range(len(views)) for j in range(i) if views[j].start < views[i].start
        ]

    def pair(self, i: int, j: int) -> tuple[list[str], list[float]]:
        ana, ant = self.views[i], self.views[j]
        between_mentions = self.views[j + 1 : i]
        mention_distance = i - j
        token_distance = max(0, ana.start - ant.end - 1)
        sentence_distance = ana.sentence - ant.sentence
        gap = self.normed[ant.end + 1 : ana.start] if ant.end < ana.start else []
        definite_between = sum(1 for view in between_mentions if view.det == "the")
        same_head_between = any(view.head == ana.head for view in between_mentions)
        nested = ant.start <= ana.start and ana.end <= ant.end
        containing = ana.start <= ant.start and ant.end <= ana.end

        md, td, sd = bucket(mention_distance), bucket(token_distance), bucket(sentence_distance)
        features = [
            "bias",
            f"md={md}",
            f"td={td}",
            f"sd={sd}",
            f"db={bucket(definite_between)}",
            f"ah={ana.head}",
            f"bh={ant.head}",
            f"af={ana.first}",
            f"bf={ant.first}",
            f"ad={ana.det}",
            f"bd={ant.det}",
            f"aq={ana.has_quantity}",
            f"bq={ant.has_quantity}",
            f"al={bucket(len(ana.words))}",
            f"bl={bucket(len(ant.words))}",
            f"ah|bh={ana.head}|{ant.head}",
            f"ah|md={ana.head}|{md}",
            f"ah|sd={ana.head}|{sd}",
            f"ah|db={ana.head}|{bucket(definite_between)}",
            f"ah|bd={ana.head}|{ant.det}",
            f"ah|bq={ana.head}|{ant.has_quantity}",
            f"ad|bd|md={ana.det}|{ant.det}|{md}",
            f"bh|md={ant.head}|{md}",
            f"same_text={ana.text == ant.text}",
            f"same_head={ana.head == ant.head}",
            f"same_head_between={same_head_between}",
            f"nearest_same_head={ana.head == ant.head and not same_head_between}",
            f"nested={nested}",
            f"containing={containing}",
            f"ana_in_ant_text={ana.head in ant.words}",
        ]
        features += [f"aw={word}" for word in ana.words[:8]]
        features += [f"bw={word}" for word in ant.words[:8]]
        features += [f"ap{k}={word}" for k, word in enumerate(ana.prev)]
        features += [f"an{k}={word}" for k, word in enumerate(ana.next)]
        features += [f"bp{k}={word}" for k, word in enumerate(ant.prev)]
        features += [f"bn{k}={word}" for k, word in enumerate(ant.next)]
        features += [f"ah|bn0={ana.head}|{word}" for word in ant.next[:1]]
        features += [f"ah|bp0={ana.head}|{word}" for word in ant.prev[:1]]
        features += [f"ah|ap0={ana.head}|{word}" for word in ana.prev[:1]]
        features += [f"g={word}" for word in gap[:12]]
        features += [f"g={word}" for word in gap[12:][-12:]]
        features += [f"mb={view.head}" for view in between_mentions[:10]]

        numbers = [
            math.log1p(mention_distance),
            math.log1p(token_distance) / 3,
            min(sentence_distance, 10) / 5,
            math.log1p(len(ana.words)) / 2,
            math.log1p(len(ant.words)) / 2,
            float(definite_between) / 3,
        ]
        return features, numbers
