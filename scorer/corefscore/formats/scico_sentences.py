"""SciCo sentence bounds: a topic's end convention and the check of every ``[start, end]``."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from corefscore.formats._io import is_int, json_type


def parse_sentences(
    value: Any,
    paragraphs: list[list[str]],
    scico: dict[str, Any],
    error: Callable[[str | None, str], None],
) -> list[list[tuple[int, int]]]:
    """The half-open sentence bounds of every paragraph, from the topic's ``sentences`` field
    (``value``); what is wrong goes to ``error(field, message)``."""
    count = len(paragraphs)
    if value is None:
        return [[] for _ in range(count)]
    if not isinstance(value, list) or len(value) != count:
        error("sentences", f"must be a list with one list of sentences per paragraph ({count})")
        return [[] for _ in range(count)]
    inclusive = ends_look_inclusive(value, paragraphs)
    if inclusive:
        scico["inclusive_sentence_ends"] = True
    shift = 1 if inclusive else 0
    fast = all_sentence_bounds(value, paragraphs, shift)
    if fast is not None:
        return fast
    result: list[list[tuple[int, int]]] = []
    for p, sentences in enumerate(value):
        size = len(paragraphs[p])
        bounds = _sentence_bounds(sentences, size, shift)
        if bounds is None:  # something is wrong: the exact check names it
            bounds = _paragraph_sentences(p, sentences, size, inclusive, error)
        result.append(bounds)
    return result


def _paragraph_sentences(
    p: int, sentences: Any, size: int, inclusive: bool, error: Callable[[str | None, str], None]
) -> list[tuple[int, int]]:
    bounds: list[tuple[int, int]] = []
    if not isinstance(sentences, list):
        error(f"sentences[{p}]", f"must be a list of [start, end], not {json_type(sentences)}")
        return bounds
    for s, pair in enumerate(sentences):
        field = f"sentences[{p}][{s}]"
        if not (isinstance(pair, list) and len(pair) == 2 and all(is_int(x) for x in pair)):
            error(field, f"must be [start, end] (two integers), not {json.dumps(pair)}")
            continue
        start, end = pair[0], pair[1] + 1 if inclusive else pair[1]
        if not 0 <= start < end <= size:
            error(
                field, f"sentence {json.dumps(pair)} does not fit in the paragraph's {size} tokens"
            )
            continue
        bounds.append((start, end))
    return bounds


def all_sentence_bounds(
    value: list[Any], paragraphs: list[list[str]], shift: int
) -> list[list[tuple[int, int]]] | None:
    """Fast path of the sentence check over a whole topic: the half-open bounds of every
    paragraph when every ``[start, end]`` is two integers that fit, else None (and the
    paragraphs are checked one by one)."""
    result = []
    for sentences, paragraph in zip(value, paragraphs, strict=True):
        bounds = _sentence_bounds(sentences, len(paragraph), shift)
        if bounds is None:
            return None
        result.append(bounds)
    return result


def _sentence_bounds(sentences: Any, size: int, shift: int) -> list[tuple[int, int]] | None:
    """Fast path of the sentence check: the half-open bounds when every ``[start, end]`` of the
    paragraph is two integers that fit, else None (and the exact check runs)."""
    if type(sentences) is not list:
        return None
    bounds: list[tuple[int, int]] = []
    append = bounds.append
    for pair in sentences:
        if type(pair) is not list or len(pair) != 2:
            return None
        start, end = pair
        if type(start) is not int or type(end) is not int or not 0 <= start < end + shift <= size:
            return None
        append((start, end + shift))
    return bounds


def ends_look_inclusive(sentences: Any, paragraphs: list[list[str]]) -> bool:
    """SciCo's sentence ends: the last sentence of a paragraph ending on its last token
    (``len - 1``) means inclusive ends; ending at ``len`` (or no evidence) means exclusive."""
    votes = 0
    for p, bounds in enumerate(sentences):
        if p < len(paragraphs) and isinstance(bounds, list) and bounds:
            last = bounds[-1]
            if isinstance(last, list) and len(last) == 2 and is_int(last[1]):
                votes += (
                    1
                    if last[1] == len(paragraphs[p]) - 1
                    else -1
                    if last[1] == len(paragraphs[p])
                    else 0
                )
    return votes > 0
