"""Helpers for the format tests: records to read and the errors a reader reports. No Django
here, so the scorer's own tests (tests/corefscore) use them too."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from corefscore.formats import FormatErrors
from corefscore.formats.errors import FormatError

# Two documents, a cluster over both ({m0, m1}) and its parent {m2}.
SCICO_TOKENS = [["We", "use", "CRF", "taggers", "."], ["A", "CRF", "model", "."]]
SCICO_MENTIONS = [[0, 2, 3, 0], [1, 1, 2, 0], [1, 0, 0, 1]]
SCICO_RELATIONS = [[1, 0]]


def scico_record(
    id: Any = 1,
    *,
    tokens: Any = SCICO_TOKENS,
    mentions: Any = SCICO_MENTIONS,
    relations: Any = SCICO_RELATIONS,
    **fields: Any,
) -> dict:
    """One SciCo topic record; a field given as None is left out (to test its absence)."""
    topic = {"id": id, "tokens": tokens, "mentions": mentions, "relations": relations, **fields}
    return {key: value for key, value in topic.items() if value is not None}


def scico_line(id: Any = 1, **fields: Any) -> str:
    """One line of a SciCo JSONL file: `scico_record`'s record."""
    return json.dumps(scico_record(id, **fields))


def errors_of(read: Callable[..., object], *args: Any, **options: Any) -> list[FormatError]:
    """The errors `read(*args, **options)` refuses its input with (it must refuse it)."""
    with pytest.raises(FormatErrors) as raised:
        read(*args, **options)
    return raised.value.errors
