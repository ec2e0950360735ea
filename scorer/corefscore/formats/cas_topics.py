"""INCEpTION documents (:mod:`cas_model`) <-> TopicData, for WebAnno TSV and UIMA CAS XMI.

Reading (decisions in docs/formats.md):
- Tokens are INCEpTION's tokens cut at every annotation boundary inside one, so sub-token
  mentions get tokens of their own; the original text, tokens and pieces are kept in
  ``DocumentData.metadata["inception"]`` and the writer puts them back.
- Each chain is a cluster (keys ``"1"``, ``"2"``... in order of chains in the topic); each of
  its links a mention whose ``metadata["inception"]["chain"]`` keeps the layer, the link's
  place in the chain and its features (``referenceType``, ``referenceRelation``).
- A span annotation on exactly a chain link's span is a label of that mention
  (``metadata["inception"]["spans"]``); elsewhere it is a candidate mention (no cluster)
  carrying it. Token layers (POS, lemma, morphology...) are left out, with a warning.
- A relation joins the mentions on its ends: ``LinkData`` (type = its first feature value,
  normalised to a ChEMU-Ref link type when it names one, else the layer's short name;
  anaphor = dependent, antecedent = governor).
- Stacked chains (INCEpTION lets one span be a link of several chains): one mention per
  chain on that span, each in its chain's cluster (two mentions with identical spans; the
  domain allows that only for members of different clusters, annotation/domain/invariants.py).
  Span labels and relation ends on that span go to the first chain's mention. Written back,
  the mentions are links of their chains on the same rows, stacked as read.
- Refused (errors): a zero-width chain link (a mention here covers at least one token); a
  span that is twice a link of one chain; an annotation that covers no token.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

from corefscore.corpus import ClusterData, DocumentData, LinkData, MentionData, TopicData
from corefscore.formats.cas_model import (
    COREF_LINK,
    REFERENCE_RELATION,
    REFERENCE_TYPE,
    TOKEN_LAYERS,
    CasChain,
    CasDocument,
    CasLink,
    CasSpan,
    Range,
    short,
)
from corefscore.formats.errors import Problems
from corefscore.formats.linktypes import link_type

NAMESPACE = "inception"
MentionKey = tuple[int, tuple[tuple[int, int], ...]]


def pieces_of(document: CasDocument, cuts: Sequence[int]) -> list[Range]:
    """The document's tokens cut at every offset of ``cuts`` strictly inside one."""
    ordered = sorted(set(cuts))
    pieces: list[Range] = []
    for begin, end in sorted(document.tokens):
        inner = ordered[bisect_right(ordered, begin) : bisect_left(ordered, end)]
        bounds = [begin, *inner, end]
        pieces += [(a, b) for a, b in itertools.pairwise(bounds) if a < b]
    return pieces


class _TokenMap:
    def __init__(self, pieces: list[Range]):
        self.starts = [a for a, _ in pieces]
        self.ends = [b for _, b in pieces]

    def span(self, begin: int, end: int) -> tuple[int, int] | None:
        """The pieces within [begin, end) as an inclusive token span; None if none is."""
        first = bisect_left(self.starts, begin)
        last = bisect_right(self.ends, end) - 1
        if first >= len(self.starts) or last < first:
            return None
        return (first, last)


def documents_to_topic(
    topic_id: str, documents: list[CasDocument], problems: Problems
) -> TopicData | None:
    reading = _Reading(topic_id, problems)
    for index, document in enumerate(documents):
        reading.document(index, document)
    return reading.topic_data()


class _Reading:
    """One topic being read: its mentions by (document, spans), the chains so far, the
    links waiting for the mentions' final order, the token layers left out."""

    def __init__(self, topic_id: str, problems: Problems):
        self.topic = TopicData(external_id=topic_id)
        self.problems = problems
        self.mentions: dict[MentionKey, MentionData] = {}
        self.where: dict[MentionKey, str] = {}  # chain mention -> "chain N link K"
        # Further mentions on a span that is a link of several chains (stacked), in chain order.
        self.stacked: list[MentionData] = []
        self.chains_at: dict[MentionKey, set[str]] = {}  # span -> clusters with a link there
        self.pending_links: list[tuple[str, MentionKey, MentionKey]] = []
        self.dropped_layers: dict[str, int] = {}
        # What became of each span and relation layer, reported layer by layer with counts
        # (nothing an annotator sees carries a span's values: they ride along for the export).
        self.span_layers: dict[str, _LayerUse] = {}
        self.relation_layers: dict[str, _LayerUse] = {}

    def document(self, index: int, document: CasDocument) -> None:
        pieces = pieces_of(document, _cuts(document))
        tokens = _TokenMap(pieces)
        sentences = []
        for begin, end in document.sentences:
            span = tokens.span(begin, end)
            if span is not None:
                sentences.append((span[0], span[1] + 1))
        self.topic.documents.append(
            DocumentData(
                doc_id=document.name,
                tokens=[document.text[a:b] for a, b in pieces],
                sentences=sentences,
                metadata={
                    NAMESPACE: {
                        "text": document.text,
                        "tokens": [list(t) for t in document.tokens],
                        "pieces": [list(p) for p in pieces],
                        "sentences": [list(s) for s in document.sentences],
                        "layers": document.layers,
                        **document.metadata,
                    }
                },
            )
        )
        for number, chain in enumerate(document.chains, start=1):
            self._chain(index, document, number, chain, tokens)
        self._spans(index, document, tokens)
        self._relations(index, document, tokens)

    def _chain(
        self, index: int, document: CasDocument, number: int, chain: CasChain, tokens: _TokenMap
    ) -> None:
        key = str(len(self.topic.clusters) + 1)
        self.topic.clusters.append(ClusterData(key))
        record = document.name
        for position, link in enumerate(chain.links, start=1):
            name = f"chain {number} link {position}"
            text = document.text[link.begin : link.end]
            if link.begin >= link.end:
                self.problems.error(
                    record,
                    name,
                    f"a zero-width link at character {link.begin}: a mention here covers "
                    "at least one token",
                )
                continue
            span = tokens.span(link.begin, link.end)
            if span is None:
                self.problems.error(record, name, f"{text!r} covers no token")
                continue
            mention_key = (index, (span,))
            if key in self.chains_at.get(mention_key, set()):
                self.problems.error(
                    record,
                    name,
                    f"{text!r} is also {self.where[mention_key]}: one span is twice a link of "
                    "the same chain",
                )
                continue
            kept = {
                "layer": chain.layer,
                "number": number,
                "link": position,
                "features": dict(link.features),
            }
            mention = MentionData(index, (span,), key, {NAMESPACE: {"chain": kept}})
            self.chains_at.setdefault(mention_key, set()).add(key)
            if mention_key in self.mentions and self.mentions[mention_key].cluster is not None:
                self.stacked.append(mention)  # a link of another chain on the same span
                continue
            self.where[mention_key] = name
            self.mentions[mention_key] = mention

    def _spans(self, index: int, document: CasDocument, tokens: _TokenMap) -> None:
        for annotation in document.spans:
            layer = annotation.layer
            if layer in TOKEN_LAYERS:
                self.dropped_layers[layer] = self.dropped_layers.get(layer, 0) + 1
                continue
            span = tokens.span(annotation.begin, annotation.end)
            if span is None:
                self.problems.warn(
                    document.name,
                    short(layer),
                    f"a {short(layer)} annotation at characters "
                    f"{annotation.begin}-{annotation.end} covers no token; left out",
                )
                continue
            use = self.span_layers.setdefault(layer, _LayerUse())
            key = (index, (span,))
            if key in self.mentions and self.mentions[key].cluster is not None:
                use.on_links += 1
            else:
                use.elsewhere += 1
                use.mentions.add(key)
            use.values.update(v for v in annotation.features.values() if v)
            mention = _mention_at(self.mentions, key)
            mention.metadata.setdefault(NAMESPACE, {}).setdefault("spans", []).append(
                {"layer": layer, "features": dict(annotation.features)}
            )

    def _relations(self, index: int, document: CasDocument, tokens: _TokenMap) -> None:
        for relation in document.relations:
            ends = [tokens.span(*relation.governor), tokens.span(*relation.dependent)]
            if ends[0] is None or ends[1] is None:
                self.problems.warn(
                    document.name, short(relation.layer), "a relation end covers no token"
                )
                continue
            governor = _mention_at(self.mentions, (index, (ends[0],)))
            dependent = _mention_at(self.mentions, (index, (ends[1],)))
            values = [v for v in relation.features.values() if v]
            type_ = (link_type(values[0]) or values[0]) if values else short(relation.layer)
            self.pending_links.append((type_, dependent.key, governor.key))
            use = self.relation_layers.setdefault(relation.layer, _LayerUse())
            use.elsewhere += 1
            use.values.add(type_)
            use.mentions.update(m.key for m in (governor, dependent) if m.cluster is None)

    def topic_data(self) -> TopicData | None:
        for layer, count in self.dropped_layers.items():
            self.problems.warn(
                None,
                short(layer),
                f"{count} {short(layer)} annotation(s) describe tokens, not mentions; left out",
            )
        self._layer_warnings()
        if self.problems.errors:
            return None
        # A stable sort: stacked mentions follow their span's first one, in chain order.
        everything = [*self.mentions.values(), *self.stacked]
        ordered = sorted(everything, key=lambda m: (m.document, m.spans))
        self.topic.mentions = ordered
        # Relations join the first mention on each span (what `self.mentions` holds).
        first = {id(m): i for i, m in enumerate(ordered)}
        indices = {k: first[id(m)] for k, m in self.mentions.items()}
        self.topic.links = [LinkData(t, indices[a], indices[b]) for t, a, b in self.pending_links]
        return self.topic

    def _layer_warnings(self) -> None:
        for layer, use in self.span_layers.items():
            name = short(layer)
            if use.elsewhere:
                self.problems.warn(
                    None,
                    name,
                    f"{use.elsewhere} {name} annotation(s){_values(use)} on no chain link: "
                    f"imported as {len(use.mentions)} mention(s) outside every cluster; their "
                    "values are kept for the export only, not shown",
                )
            if use.on_links:
                self.problems.warn(
                    None,
                    name,
                    f"{use.on_links} {name} annotation(s){_values(use)} on chain links: kept "
                    "with those mentions for the export only, not shown",
                )
        for layer, use in self.relation_layers.items():
            name = short(layer)
            ends = f" (their ends: {len(use.mentions)} mention(s) outside every cluster)"
            self.problems.warn(
                None,
                name,
                f"{use.elsewhere} {name} relation(s) imported as anaphora links of type "
                f"{', '.join(sorted(use.values))}{ends if use.mentions else ''}; a project "
                "shows them with the anaphora scheme",
            )


class _LayerUse:
    """One layer's annotations in a topic: on chain links, elsewhere, the mentions they made."""

    def __init__(self) -> None:
        self.on_links = 0
        self.elsewhere = 0
        self.mentions: set[MentionKey] = set()
        self.values: set[str] = set()


def _values(use: _LayerUse) -> str:
    """A few of the layer's values, so the admin recognises it (` ("PER", "LOC", ...)`)."""
    if not use.values:
        return ""
    shown = sorted(use.values)[:3]
    more = ", ..." if len(use.values) > 3 else ""
    return " (" + ", ".join(repr(v) for v in shown) + more + ")"


def _cuts(document: CasDocument) -> list[int]:
    """Every offset an annotation (other than a token layer's) starts or ends at."""
    cuts = [o for chain in document.chains for link in chain.links for o in (link.begin, link.end)]
    cuts += [
        o
        for span in document.spans
        if span.layer not in TOKEN_LAYERS
        for o in (span.begin, span.end)
    ]
    cuts += [o for r in document.relations for o in (*r.governor, *r.dependent)]
    return cuts


def _mention_at(mentions: dict[MentionKey, MentionData], key: MentionKey) -> MentionData:
    if key not in mentions:
        mentions[key] = MentionData(key[0], key[1], None, {})
    return mentions[key]


# --------------------------------------------------------------------------- writing


def topic_to_documents(topic: TopicData, problems: Problems) -> list[CasDocument]:
    """One INCEpTION document per topic document: its chains (a cluster's mentions in each
    document), the span labels kept from a reading; what cannot go is warned about."""
    documents = []
    members = topic.cluster_members()
    order = {c.key: i for i, c in enumerate(topic.clusters)}
    keys = sorted(members, key=lambda k: (order.get(k, len(order)), k))
    if topic.links:
        problems.warn(
            topic.external_id,
            "links",
            f"{len(topic.links)} link(s) are not written (INCEpTION's relations join span "
            "layers, not chain links)",
        )
    for index, data in enumerate(topic.documents):
        document, pieces = _document_text(data, topic.external_id, problems)
        for key in keys:
            in_document = [i for i in members[key] if topic.mentions[i].document == index]
            if not in_document:
                continue
            if len(in_document) < len(members[key]):
                problems.warn(
                    topic.external_id,
                    f"cluster {key}",
                    "crosses documents: written as one chain per document",
                )
            chain = CasChain(COREF_LINK)
            ordered = sorted(in_document, key=lambda i: _link_order(topic.mentions[i]))
            for i in ordered:
                mention = topic.mentions[i]
                kept = mention.metadata.get(NAMESPACE, {}).get("chain", {})
                if isinstance(kept.get("layer"), str):
                    chain.layer = kept["layer"]
                begin, end = _char_range(mention, pieces, topic.external_id, problems)
                features = kept.get("features") or {}
                chain.links.append(
                    CasLink(begin, end, {str(k): str(v) for k, v in features.items()})
                )
            document.chains.append(chain)
        for mention in topic.mentions:
            if mention.document != index:
                continue
            for kept_span in mention.metadata.get(NAMESPACE, {}).get("spans", []):
                begin, end = _char_range(mention, pieces, topic.external_id, problems)
                features = kept_span.get("features") or {}
                document.spans.append(
                    CasSpan(
                        str(kept_span["layer"]),
                        begin,
                        end,
                        {str(k): str(v) for k, v in features.items()},
                    )
                )
        for chain in document.chains:
            document.layers.setdefault(chain.layer, [REFERENCE_TYPE, REFERENCE_RELATION])
        for span_annotation in document.spans:
            names = document.layers.setdefault(span_annotation.layer, [])
            names += [n for n in span_annotation.features if n not in names]
        documents.append(document)
    return documents


def _link_order(mention: MentionData) -> tuple[Any, ...]:
    chain = mention.metadata.get(NAMESPACE, {}).get("chain", {})
    link = chain.get("link")
    return (0, link, mention.spans) if isinstance(link, int) else (1, 0, mention.spans)


def _document_text(
    data: DocumentData, topic: str, problems: Problems
) -> tuple[CasDocument, list[Range]]:
    """The document's text and character ranges: the ones read, when its tokens are still
    those; else the tokens joined by spaces, one sentence per line."""
    kept = data.metadata.get(NAMESPACE)
    if isinstance(kept, dict) and _kept_fits(kept, data.tokens):
        document = CasDocument(
            name=data.doc_id,
            text=kept["text"],
            sentences=[(a, b) for a, b in kept["sentences"]],
            tokens=[(a, b) for a, b in kept["tokens"]],
            layers={str(k): list(v) for k, v in (kept.get("layers") or {}).items()},
            metadata={k: v for k, v in kept.items() if k == "sentence_ids"},
        )
        return document, [(a, b) for a, b in kept["pieces"]]
    sentences = data.sentences or [(0, len(data.tokens))]
    text_parts: list[str] = []
    pieces: list[Range] = []
    sentence_ranges: list[Range] = []
    offset = 0
    for number, (start, end) in enumerate(sentences):
        if number:
            text_parts.append("\n")
            offset += 1
        begin = offset
        for position in range(start, end):
            if position > start:
                text_parts.append(" ")
                offset += 1
            token = data.tokens[position]
            if not token or any(c.isspace() for c in token):
                problems.warn(topic, f"token {position}", f"{token!r} holds spaces")
            text_parts.append(token)
            pieces.append((offset, offset + len(token)))
            offset += len(token)
        sentence_ranges.append((begin, offset))
    if len(pieces) != len(data.tokens):
        problems.warn(topic, data.doc_id, "sentences do not cover every token; some are lost")
    document = CasDocument(
        name=data.doc_id, text="".join(text_parts), sentences=sentence_ranges, tokens=pieces
    )
    return document, pieces


def _kept_fits(kept: dict[str, Any], tokens: list[str]) -> bool:
    try:
        text, pieces = kept["text"], kept["pieces"]
        return (
            isinstance(text, str)
            and len(pieces) == len(tokens)
            and all(text[a:b] == t for (a, b), t in zip(pieces, tokens, strict=True))
            and isinstance(kept["tokens"], list)
            and isinstance(kept["sentences"], list)
        )
    except (KeyError, TypeError, ValueError):
        return False


def _char_range(mention: MentionData, pieces: list[Range], topic: str, problems: Problems) -> Range:
    if len(mention.spans) > 1:
        problems.warn(
            topic,
            f"mention {mention.spans}",
            "discontinuous: written as the covering span",
        )
    return pieces[mention.spans[0][0]][0], pieces[mention.spans[-1][1]][1]
