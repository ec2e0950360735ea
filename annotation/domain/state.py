"""The annotation of one assignment, as plain in-memory data.

`AnnotationState` holds what an annotator builds over one topic: mentions (candidates plus
added ones, current spans, rejected flag), clusters, hierarchy edges, anaphora links and
suggestion decisions, with the indexes that keep every operation cheap on a topic of
thousands of mentions (parents/children of a cluster, links of a mention, mentions by span).

Only `apply_effects` (annotation.domain.effects) should call the mutators below: they keep
the indexes in step but check nothing, so that effects stay the single way to change state.

Mention text: the state keeps no tokens. A cluster created for a mention is labelled with
that mention's text, which the optional `mention_text(mention) -> str` provider supplies
(the service backs it with the document tokens, so it also works for added mentions and
fixed spans). Without a provider the label is "mention #<id>". The label is stored in the
`cluster_created` effect, so replaying a log never needs the provider.

Messages name a mention the way the annotator sees it: its text and its place, e.g.
`"the filtrate" (document 2, word 87)` (`mention_name`). Documents are numbered 1, 2, ... in
the order of `documents`, which the loader fills in topic order, as the workspace numbers them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

Span = tuple[int, int]
Spans = tuple[Span, ...]

DECISIONS = ("accepted", "rejected")
MENTION_NAME_CHARS = 40  # longer mention texts are cut short in messages


@dataclass(frozen=True)
class Settings:
    """Project flags that decide which operations are allowed."""

    single_parent: bool = True
    allow_add_mentions: bool = False
    allow_fix_spans: bool = False
    allow_reject_mentions: bool = False
    hierarchy: bool = True
    anaphora: bool = False
    # Refuse a second link (of another type) between the same anaphor and antecedent;
    # when off, such a link is added with a warning that names the existing one.
    refuse_duplicate_link_pairs: bool = False
    # Validation scheme: a person accepts or rejects each mention of pre-built clusters,
    # rejecting with one of the project's reasons (their keys here).
    validation: bool = False
    validation_reasons: tuple[str, ...] = ()
    # The project's attributes of links and clusters: (name, allowed values) pairs, e.g.
    # (("certainty", ("high", "low")),); a link or a cluster carries at most one value of each.
    attributes: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def attribute_values(self, name: str) -> tuple[str, ...] | None:
        """The allowed values of the attribute `name`, or None when the project has none."""
        for defined, values in self.attributes:
            if defined == name:
                return values
        return None


def as_spans(spans: Any) -> Spans:
    """`[[s, e], ...]` (JSON) or tuples -> the canonical tuple of `(start, end)` tuples."""
    return tuple((int(start), int(end)) for start, end in spans)


@dataclass(frozen=True)
class Mention:
    """Immutable: a change of spans or of the rejected flag replaces the object."""

    id: int
    document: int
    spans: Spans
    added: bool = False
    rejected: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "spans", as_spans(self.spans))

    @property
    def start(self) -> int:
        """First token of the first span: what the ordering of anaphora links compares."""
        return self.spans[0][0]


@dataclass
class Cluster:
    id: int
    label: str
    note: str = ""
    members: set[int] = field(default_factory=set)
    attributes: dict[str, str] = field(default_factory=dict)  # name -> value


class Validation(NamedTuple):
    """A validator's decision on one mention: accepted, or rejected with a reason's key."""

    decision: str
    reason: str | None = None
    note: str = ""


class Link(NamedTuple):
    type: str
    anaphor: int
    antecedent: int


@dataclass(eq=False)
class AnnotationState:
    settings: Settings = field(default_factory=Settings)
    documents: dict[int, int] = field(default_factory=dict)  # document id -> token count
    mentions: dict[int, Mention] = field(default_factory=dict)
    clusters: dict[int, Cluster] = field(default_factory=dict)
    edges: set[tuple[int, int]] = field(default_factory=set)  # (parent, child)
    links: set[Link] = field(default_factory=set)
    decisions: dict[int, str] = field(default_factory=dict)  # suggestion id -> decision
    validations: dict[int, Validation] = field(default_factory=dict)  # mention id -> decision
    # What annotators wrote on links: only the links that carry a note or an attribute.
    link_notes: dict[Link, str] = field(default_factory=dict)
    link_attributes: dict[Link, dict[str, str]] = field(default_factory=dict)  # name -> value
    mention_text: Callable[[Mention], str] | None = field(default=None, repr=False)

    # Indexes, derived from the fields above.
    mention_cluster: dict[int, int] = field(init=False, repr=False)
    parents: dict[int, set[int]] = field(init=False, repr=False)
    children: dict[int, set[int]] = field(init=False, repr=False)
    mention_links: dict[int, set[Link]] = field(init=False, repr=False)
    mentions_at: dict[tuple[int, Spans], set[int]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.edges = set(self.edges)
        self.links = {Link(*link) for link in self.links}
        self.mention_cluster = {}
        for cluster in self.clusters.values():
            for member in cluster.members:
                if member in self.mention_cluster:
                    raise ValueError(f"mention #{member} is in two clusters")
                self.mention_cluster[member] = cluster.id
        self.parents = {id: set() for id in self.clusters}
        self.children = {id: set() for id in self.clusters}
        for parent, child in self.edges:
            if parent not in self.clusters or child not in self.clusters:
                raise ValueError(f"edge #{parent} -> #{child} names a missing cluster")
            self.parents[child].add(parent)
            self.children[parent].add(child)
        self.mention_links = {id: set() for id in self.mentions}
        for link in self.links:
            if link.anaphor not in self.mentions or link.antecedent not in self.mentions:
                raise ValueError(f"link {tuple(link)} names a missing mention")
            self.mention_links[link.anaphor].add(link)
            self.mention_links[link.antecedent].add(link)
        self.link_notes = {Link(*link): note for link, note in self.link_notes.items()}
        self.link_attributes = {
            Link(*link): dict(values) for link, values in self.link_attributes.items()
        }
        for link in (*self.link_notes, *self.link_attributes):
            if link not in self.links:
                raise ValueError(f"a note or attribute names the missing link {tuple(link)}")
        self.mentions_at = {}
        for mention in self.mentions.values():
            self.mentions_at.setdefault((mention.document, mention.spans), set()).add(mention.id)

    # -- reading -------------------------------------------------------------------------

    def cluster_name(self, cluster_id: int) -> str:
        """How messages name a cluster: its label and id, e.g. `'CRF tagger' (#12)`."""
        cluster = self.clusters.get(cluster_id)
        label = cluster.label if cluster is not None else "?"
        return f"'{label}' (#{cluster_id})"

    def document_number(self, document: int) -> int:
        """The document's place in the topic, from 1 (0 for a document the state does not know)."""
        for number, id in enumerate(self.documents, start=1):
            if id == document:
                return number
        return 0

    def mention_name(self, mention_id: int) -> str:
        """How messages name a mention: its text and place, e.g. `"the filtrate" (document 2,
        word 87)`; words count from 1 in the document. Without a text provider: `the mention
        at document 2, word 87`. Ids are internal, so a message never shows them."""
        mention = self.mentions.get(mention_id)
        if mention is None:
            return f"mention #{mention_id}"
        place = f"document {self.document_number(mention.document)}, word {mention.start + 1}"
        text = self.mention_text(mention).strip() if self.mention_text is not None else ""
        if not text:
            return f"the mention at {place}"
        if len(text) > MENTION_NAME_CHARS:
            text = text[: MENTION_NAME_CHARS - 1].rstrip() + "…"
        return f'"{text}" ({place})'

    def default_label(self, mention: Mention) -> str:
        if self.mention_text is not None:
            text = self.mention_text(mention).strip()
            if text:
                return text
        return f"mention #{mention.id}"

    def active_mentions_at(self, document: int, spans: Spans) -> set[int]:
        """Ids of the non-rejected mentions with exactly these spans in this document."""
        ids = self.mentions_at.get((document, spans), set())
        return {id for id in ids if not self.mentions[id].rejected}

    def snapshot(self) -> dict[str, Any]:
        """A canonical, comparable, JSON-able picture of the whole state (indexes excluded)."""
        return {
            "settings": {
                name: list(value) if isinstance(value, tuple) else value
                for name, value in vars(self.settings).items()
            },
            "documents": sorted([id, count] for id, count in self.documents.items()),
            "mentions": [
                [m.id, m.document, [list(span) for span in m.spans], m.added, m.rejected]
                for m in sorted(self.mentions.values(), key=lambda m: m.id)
            ],
            "clusters": [
                [c.id, c.label, c.note, sorted(c.members)]
                for c in sorted(self.clusters.values(), key=lambda c: c.id)
            ],
            "edges": sorted([parent, child] for parent, child in self.edges),
            "links": sorted(list(link) for link in self.links),
            "decisions": sorted([id, decision] for id, decision in self.decisions.items()),
            "validations": sorted([id, *v] for id, v in self.validations.items()),
            "link_notes": sorted([*link, note] for link, note in self.link_notes.items()),
            "link_attributes": sorted(
                [*link, name, value]
                for link, values in self.link_attributes.items()
                for name, value in values.items()
            ),
            "cluster_attributes": sorted(
                [c.id, name, value]
                for c in self.clusters.values()
                for name, value in c.attributes.items()
            ),
        }

    def copy(self) -> AnnotationState:
        """An independent copy (O(size of the state); plan never needs one)."""
        return AnnotationState(
            settings=self.settings,
            documents=dict(self.documents),
            mentions=dict(self.mentions),  # Mention objects are immutable
            clusters={
                id: replace(c, members=set(c.members), attributes=dict(c.attributes))
                for id, c in self.clusters.items()
            },
            edges=set(self.edges),
            links=set(self.links),
            decisions=dict(self.decisions),
            validations=dict(self.validations),
            link_notes=dict(self.link_notes),
            link_attributes={link: dict(values) for link, values in self.link_attributes.items()},
            mention_text=self.mention_text,
        )

    # -- mutators (for apply_effects only: they keep indexes, they check nothing) ----------

    def create_cluster(self, id: int, label: str, note: str) -> None:
        self.clusters[id] = Cluster(id, label, note)
        self.parents[id] = set()
        self.children[id] = set()

    def delete_cluster(self, id: int) -> None:
        del self.clusters[id], self.parents[id], self.children[id]

    def set_member(self, mention: int, cluster: int | None) -> None:
        old = self.mention_cluster.pop(mention, None)
        if old is not None:
            self.clusters[old].members.discard(mention)
        if cluster is not None:
            self.clusters[cluster].members.add(mention)
            self.mention_cluster[mention] = cluster

    def add_edge(self, parent: int, child: int) -> None:
        self.edges.add((parent, child))
        self.parents[child].add(parent)
        self.children[parent].add(child)

    def remove_edge(self, parent: int, child: int) -> None:
        self.edges.discard((parent, child))
        self.parents[child].discard(parent)
        self.children[parent].discard(child)

    def add_link(self, link: Link) -> None:
        self.links.add(link)
        self.mention_links[link.anaphor].add(link)
        self.mention_links[link.antecedent].add(link)

    def remove_link(self, link: Link) -> None:
        self.links.discard(link)
        self.mention_links[link.anaphor].discard(link)
        self.mention_links[link.antecedent].discard(link)

    def set_link_note(self, link: Link, note: str) -> None:
        if note:
            self.link_notes[link] = note
        else:
            self.link_notes.pop(link, None)

    def set_link_attribute(self, link: Link, name: str, value: str | None) -> None:
        values = self.link_attributes.setdefault(link, {})
        if value is None:
            values.pop(name, None)
        else:
            values[name] = value
        if not values:
            del self.link_attributes[link]

    def set_cluster_attribute(self, cluster: int, name: str, value: str | None) -> None:
        values = self.clusters[cluster].attributes
        if value is None:
            values.pop(name, None)
        else:
            values[name] = value

    def set_validation(self, mention: int, validation: Validation | None) -> None:
        if validation is None:
            self.validations.pop(mention, None)
        else:
            self.validations[mention] = validation

    def put_mention(self, mention: Mention) -> None:
        """Add a mention or replace one (new spans, new rejected flag)."""
        old = self.mentions.get(mention.id)
        if old is not None:
            self._unindex_spans(old)
        else:
            self.mention_links[mention.id] = set()
        self.mentions[mention.id] = mention
        self.mentions_at.setdefault((mention.document, mention.spans), set()).add(mention.id)

    def remove_mention(self, id: int) -> None:
        self._unindex_spans(self.mentions.pop(id))
        del self.mention_links[id]

    def _unindex_spans(self, mention: Mention) -> None:
        key = (mention.document, mention.spans)
        ids = self.mentions_at[key]
        ids.discard(mention.id)
        if not ids:
            del self.mentions_at[key]
