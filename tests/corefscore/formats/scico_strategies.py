"""Hypothesis strategies for SciCo lines: valid topics, then some values (at any depth) replaced
by arbitrary JSON, sometimes the text cut (``test_formats_scico_fast``)."""

from __future__ import annotations

import json
from itertools import pairwise

from hypothesis import strategies as st

from corefscore.formats import scico_mentions

BIG = 123456789012345678901234567890  # beyond 64 bits: orjson would make it a float


def topic(**fields):
    line = {
        "flatten_tokens": ["neural", "machine", "translation", ".", "NMT", "works", "."],
        "flatten_mentions": [[0, 2, 0], [4, 4, 0], [5, 5, 1]],
        "tokens": [["neural", "machine", "translation", "."], ["NMT", "works", "."]],
        "doc_ids": [10, 11],
        "metadata": [{"title": "A", "Year": "2019"}, {"title": "B", "Year": "2020"}],
        "sentences": [[[0, 4]], [[0, 3]]],
        "mentions": [[0, 0, 2, 0], [1, 0, 0, 0], [1, 1, 1, 1]],
        "relations": [[0, 1]],
        "id": 1,
        "source": "pwc",
    }
    line.update(fields)
    return {key: value for key, value in line.items() if value is not None}


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.sampled_from([BIG, -1, 1.0, 0.5, "", "0", "07", "x", "3"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "b"]), children, max_size=2)
    ),
    max_leaves=6,
)
FIELDS = [
    "id",
    "tokens",
    "doc_ids",
    "metadata",
    "sentences",
    "mentions",
    "relations",
    "source",
    "flatten_tokens",
    "flatten_mentions",
    "hard_10",
]


@st.composite
def scico_lines(draw):
    """A valid line, then a few of its values (at any depth) replaced by arbitrary JSON."""
    n_paragraphs = draw(st.integers(1, 3))
    tokens = [
        draw(st.lists(st.sampled_from(["a", "b", "[", "\u2013", "\\"]), min_size=1, max_size=6))
        for _ in range(n_paragraphs)
    ]
    mentions = []
    for _ in range(draw(st.integers(0, 5))):
        p = draw(st.integers(0, n_paragraphs - 1))
        start = draw(st.integers(0, len(tokens[p]) - 1))
        end = draw(st.integers(start, len(tokens[p]) - 1))
        cluster = draw(st.integers(0, 3) | st.sampled_from(["7", "c"]))
        mentions.append([p, start, end, cluster] if draw(st.integers(0, 5)) else [p, start, end])
    clusters = list(dict.fromkeys(m[3] for m in mentions if len(m) == 4))
    relations = [[a, b] for a, b in pairwise(clusters)][: draw(st.integers(0, 3))]
    inclusive = draw(st.booleans())
    line = topic(
        id=draw(st.integers(0, 3) | st.sampled_from(["5", "t"])),
        tokens=tokens,
        flatten_tokens=[t for p in tokens for t in p],
        flatten_mentions=scico_mentions.flatten_mentions(tokens, mentions),
        doc_ids=draw(
            st.sampled_from(
                [None, [7 + p for p in range(n_paragraphs)], [str(p) for p in range(n_paragraphs)]]
            )
        ),
        metadata=draw(st.sampled_from([None, [{"title": "t"} for _ in range(n_paragraphs)]])),
        sentences=[[[0, len(p) - (1 if inclusive else 0)]] for p in tokens],
        mentions=mentions,
        relations=relations,
        hard_10=draw(st.booleans()),
    )
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from(FIELDS))
        if name not in line:
            continue
        value = draw(JSON_VALUES)
        target = line
        key = name
        # walk down into lists a few levels and replace there
        while isinstance(target[key], list) and target[key] and draw(st.booleans()):
            target, key = target[key], draw(st.integers(0, len(target[key]) - 1))
        target[key] = value
    text = json.dumps(line)
    if draw(st.integers(0, 9)) == 0:
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.sampled_from(["", "}", "]", ",", "x", " NaN"])) + text[cut:]
    return text
