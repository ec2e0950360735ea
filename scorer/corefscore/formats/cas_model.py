"""A document as INCEpTION holds it (text; sentences, tokens, chains, spans and relations in
character offsets), shared by the WebAnno TSV and UIMA CAS XMI readers and writers.

The mapping to and from TopicData is in :mod:`cas_topics`. Offsets here are Python string
offsets (code points); the TSV reader converts INCEpTION's UTF-16 offsets, cassis converts
the XMI's itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# DKPro Core's coreference layer: the chain type is the link type with "Link" -> "Chain".
COREF_LINK = "de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink"
REFERENCE_TYPE = "referenceType"
REFERENCE_RELATION = "referenceRelation"
TOKEN = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"
SENTENCE = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence"
# Layers that describe tokens, not mentions: read, counted in a warning, not kept.
TOKEN_LAYERS = frozenset(
    "de.tudarmstadt.ukp.dkpro.core.api." + name
    for name in (
        "lexmorph.type.pos.POS",
        "lexmorph.type.morph.MorphologicalFeatures",
        "segmentation.type.Lemma",
        "segmentation.type.Stem",
        "segmentation.type.SurfaceForm",
        "syntax.type.dependency.Dependency",
    )
)

Range = tuple[int, int]


def chain_type(link_layer: str) -> str:
    """The chain type of a link layer (DKPro's naming: ``...Link`` -> ``...Chain``)."""
    return (link_layer.removesuffix("Link")) + "Chain"


def short(layer: str) -> str:
    return layer.rsplit(".", 1)[-1]


@dataclass
class CasLink:
    begin: int
    end: int
    features: dict[str, str] = field(default_factory=dict)
    # The file line the link was first read from (TSV), for messages; not compared.
    line: int | None = field(default=None, compare=False)


@dataclass
class CasChain:
    layer: str  # the link type, e.g. ...coref.type.CoreferenceLink
    links: list[CasLink] = field(default_factory=list)


@dataclass
class CasSpan:
    layer: str
    begin: int
    end: int
    features: dict[str, str] = field(default_factory=dict)


@dataclass
class CasRelation:
    layer: str
    governor: Range
    dependent: Range
    features: dict[str, str] = field(default_factory=dict)


@dataclass
class CasDocument:
    name: str
    text: str
    sentences: list[Range] = field(default_factory=list)
    tokens: list[Range] = field(default_factory=list)
    chains: list[CasChain] = field(default_factory=list)
    spans: list[CasSpan] = field(default_factory=list)
    relations: list[CasRelation] = field(default_factory=list)
    # Feature names per layer as the file declares them (the writer keeps their order).
    layers: dict[str, list[str]] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
