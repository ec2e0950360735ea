"""corefscore: score and convert coreference annotations without the application.

The command line is ``python -m corefscore score|iaa|convert`` (also the ``corefscore``
script). The Python API, like coval's::

    import corefscore

    scores = corefscore.score("gold.jsonl", "system.jsonl", format="scico")
    scores["conll_f1"], scores["hierarchy"]["f1"]
    agreement = corefscore.iaa(["a.jsonl", "b.jsonl"], format="scico", names=["a", "b"])
    corefscore.convert("gold.jsonl", "brat/", from_format="scico", to_format="brat")
    topics = corefscore.read("brat", "brat/").topics  # an ImportReport of TopicData

:func:`score` and :func:`iaa` are :mod:`corefscore.scoring.from_files`'; :func:`convert` is
:mod:`corefscore.formats.convert`'s; :func:`read` and :func:`write` are
:mod:`corefscore.formats`' (``FORMATS`` lists every format). Below
them: the metrics in :mod:`corefscore.metrics`, the scorers on topics in
:mod:`corefscore.scoring.api`, and the pure corpus model (documents, mentions, clusters,
relations, links) in :mod:`corefscore.corpus`.

The names are loaded on first use, so that ``import corefscore.corpus`` (what the
application imports everywhere) does not load every reader and writer.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from corefscore.corpus import TopicData as TopicData
    from corefscore.formats import FORMATS as FORMATS
    from corefscore.formats import FormatErrors as FormatErrors
    from corefscore.formats import ImportReport as ImportReport
    from corefscore.formats import read as read
    from corefscore.formats import write as write
    from corefscore.formats.convert import Converted as Converted
    from corefscore.formats.convert import UnsupportedConversion as UnsupportedConversion
    from corefscore.formats.convert import UnwritableTarget as UnwritableTarget
    from corefscore.formats.convert import convert as convert
    from corefscore.scoring.from_files import InputError as InputError
    from corefscore.scoring.from_files import iaa as iaa
    from corefscore.scoring.from_files import score as score
    from corefscore.scoring.plain import TopicAnnotation as TopicAnnotation

_WHERE = {
    "score": "corefscore.scoring.from_files",
    "iaa": "corefscore.scoring.from_files",
    "InputError": "corefscore.scoring.from_files",
    "convert": "corefscore.formats.convert",
    "Converted": "corefscore.formats.convert",
    "UnsupportedConversion": "corefscore.formats.convert",
    "UnwritableTarget": "corefscore.formats.convert",
    "read": "corefscore.formats",
    "write": "corefscore.formats",
    "FORMATS": "corefscore.formats",
    "FormatErrors": "corefscore.formats",
    "ImportReport": "corefscore.formats",
    "TopicData": "corefscore.corpus",
    "TopicAnnotation": "corefscore.scoring.plain",
}

__all__ = list(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'corefscore' has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
