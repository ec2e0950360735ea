"""Mentions as token tags and back: a layered BIO scheme with discontinuous parts (BIOHD-style).

A layer is one tag per token:

- ``B`` / ``I``: the first token / a further token of a mention's first (or only) fragment;
- ``DB`` / ``DI``: the first / a further token of a later fragment of a discontinuous
  mention; it continues the mention most recently started in the same layer;
- ``O``: outside.

This is BIOHD (Metke-Jimenez and Karimi 2016; HUKB at ChEMU 2021) without the ``H`` (head)
tags: ChEMU-Ref's discontinuous mentions never share tokens with another mention of the
same layer (a head shared by two mentions is what ``H`` is for), so a later fragment only
needs to say "I continue the mention before me". What BIOHD cannot hold, nested mentions
(1 % of ChEMU-Ref's, such as "ethyl acetate (8 mL)" inside "a solution of X in ethyl
acetate (8 mL)"), goes to a second layer: mentions are placed longest first in the lowest
layer where decoding that layer still gives back exactly its mentions, so every mention of
the training file round-trips (tests/modelserve/backends/test_biohd.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

TAGS = ("O", "B", "I", "DB", "DI")
O, B, I, DB, DI = range(len(TAGS))
Spans = tuple[tuple[int, int], ...]

# ALLOWED[previous][next]: what a well-formed layer may hold (I only inside a fragment
# begun by B, DI only inside one begun by DB; DB only once a mention was started).
ALLOWED = (
    (True, True, False, True, False),  # after O
    (True, True, True, True, False),  # after B
    (True, True, True, True, False),  # after I
    (True, True, False, True, True),  # after DB
    (True, True, False, True, True),  # after DI
)
START_ALLOWED = (True, True, False, False, False)


def decode_layer(tags: Sequence[int]) -> list[Spans]:
    """The mentions of one layer, in order of their first token.

    Lenient with ill-formed input (what an unconstrained model may give): an ``I`` outside a
    fragment starts a mention as ``B`` would, a ``DI`` outside a fragment starts a later
    fragment as ``DB`` would, and a later fragment with no mention before it is a mention.
    """
    mentions: list[list[list[int]]] = []
    inside = False  # the previous token belongs to a fragment that may go on
    for position, tag in enumerate(tags):
        if tag == O:
            inside = False
        elif tag == B or (tag == I and not inside):
            mentions.append([[position, position]])
            inside = True
        elif tag == DB or (tag == DI and not inside):
            if mentions:
                mentions[-1].append([position, position])
            else:
                mentions.append([[position, position]])
            inside = True
        else:  # I or DI inside a fragment: it grows
            mentions[-1][-1][1] = position
    return [tuple((start, end) for start, end in spans) for spans in mentions]


def encode_layer(mentions: Iterable[Spans], length: int) -> list[int]:
    """One layer's tags for mentions that share no token (spans sorted, inclusive)."""
    tags = [O] * length
    for spans in mentions:
        for fragment, (start, end) in enumerate(spans):
            tags[start] = B if fragment == 0 else DB
            for position in range(start + 1, end + 1):
                tags[position] = I if fragment == 0 else DI
    return tags


def encode(
    mentions: Iterable[Spans], length: int, max_layers: int | None = None
) -> list[list[int]]:
    """Layers of tags holding the mentions: longest first, each in the lowest layer where it
    fits (no shared token, and the layer still decodes to exactly its mentions).

    With `max_layers`, mentions that fit in none of them are left out (for training a model
    with that many layers); without, as many layers as needed are made.
    """
    layers: list[list[Spans]] = []
    taken: list[set[int]] = []
    ordered = sorted(
        {_normal(spans) for spans in mentions},
        key=lambda spans: (-_size(spans), spans[0][0], spans),
    )
    for spans in ordered:
        tokens = {p for start, end in spans for p in range(start, end + 1)}
        for index in range(len(layers) + 1):
            if max_layers is not None and index >= max_layers:
                break
            if index == len(layers):
                layers.append([])
                taken.append(set())
            if tokens & taken[index]:
                continue
            trial = [*layers[index], spans]
            if sorted(decode_layer(encode_layer(trial, length))) == sorted(trial):
                layers[index] = trial
                taken[index] |= tokens
                break
    return [encode_layer(layer, length) for layer in layers] or [[O] * length]


def decode(layers: Iterable[Sequence[int]]) -> list[Spans]:
    """Every layer's mentions, once each, in order of first token."""
    found = {spans for tags in layers for spans in decode_layer(tags)}
    return sorted(found, key=lambda spans: (spans[0][0], spans))


def _normal(spans: Iterable[Sequence[int]]) -> Spans:
    return tuple(sorted((int(start), int(end)) for start, end in spans))


def _size(spans: Spans) -> int:
    return spans[-1][1] - spans[0][0]
