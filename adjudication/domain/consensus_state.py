"""Between annotation states and the consensus: the effects that write a consensus into an
adjudicator's (empty) state. (The versions the consensus reads come from the database,
selectors/consensus_versions.py.)

Mentions are matched across annotations by `(document, spans)`: candidate mentions are shared
by every annotation of a topic, while a mention an annotator added (or whose spans they fixed)
exists only in their annotation, so its spans are what the others can agree on.
"""

from __future__ import annotations

from collections.abc import Callable

from adjudication.domain.consensus import Consensus, MentionKey
from annotation.domain import effects as fx
from annotation.domain.effects import Effect
from annotation.domain.operations.clusters import LABEL_MAX_CHARS
from annotation.domain.state import AnnotationState, Link, Mention, Spans


def seed_effects(
    state: AnnotationState, seed: Consensus, new_id: Callable[[str], int]
) -> list[Effect]:
    """Effects that turn `state` (an empty annotation: its topic's candidates, nothing else)
    into `seed`: candidates the seed lacks are rejected, mentions it has that no candidate is
    are added (where the project allows fixing spans, such a mention overlapping a candidate
    the seed lacks is that candidate with fixed spans), then clusters, members, edges and
    links, in the order effects require."""
    effects: list[Effect] = []
    kept = set(seed.mentions)
    mention_at: dict[MentionKey, int] = {}
    dropped = []
    for mention in sorted(state.mentions.values(), key=lambda m: m.id):
        key = (mention.document, mention.spans)
        if mention.rejected:
            continue
        if key in kept and key not in mention_at:
            mention_at[key] = mention.id
        else:
            dropped.append(mention)
    missing = [key for key in seed.mentions if key not in mention_at]
    if state.settings.allow_fix_spans:
        # A candidate the seed lacks and a mention the seed has where no candidate is, in the
        # same document and overlapping: the annotators fixed the candidate's spans.
        for mention in sorted(dropped, key=lambda m: (m.document, m.spans)):
            fixed = next((k for k in missing if _overlap(k, mention.document, mention.spans)), None)
            if fixed is not None:
                missing.remove(fixed)
                dropped.remove(mention)
                mention_at[fixed] = mention.id
                effects.append(fx.spans_set(mention.id, mention.spans, fixed[1]))
    effects += [fx.rejected_set(mention.id, False, True) for mention in dropped]
    for key in missing:
        mention_at[key] = new_id("mention")
        effects.append(fx.mention_added(mention_at[key], key[0], key[1]))
    # Effects of one kind together: the database layer writes each run in one statement.
    cluster_ids = [new_id("cluster") for _ in seed.clusters]
    labels = _distinct(
        [c.label or _default_label(state, c.members[0], mention_at) for c in seed.clusters]
    )
    for cluster_id, cluster, label in zip(cluster_ids, seed.clusters, labels, strict=True):
        effects.append(fx.cluster_created(cluster_id, label, cluster.note))
    for cluster_id, cluster in zip(cluster_ids, seed.clusters, strict=True):
        effects += [fx.member_set(mention_at[m], None, cluster_id) for m in cluster.members]
    effects += [fx.edge_added(cluster_ids[p], cluster_ids[c]) for p, c in seed.edges]
    effects += [
        fx.link_added(Link(link.type, mention_at[link.anaphor], mention_at[link.antecedent]))
        for link in seed.links
    ]
    return effects


def _distinct(labels: list[str]) -> list[str]:
    """The labels with a later repeat numbered ("segmentation (2)"): two clusters of the seed
    under one name read as one concept in the bank and in the queue ("GraphSAGE under
    GraphSAGE" on the demo), though the consensus kept them apart."""
    taken = set(labels)
    seen: set[str] = set()
    result = []
    for label in labels:
        if label in seen:
            number = 2
            while _numbered(label, number) in taken:
                number += 1
            label = _numbered(label, number)
            taken.add(label)
        seen.add(label)
        result.append(label)
    return result


def _numbered(label: str, number: int) -> str:
    suffix = f" ({number})"
    return label[: LABEL_MAX_CHARS - len(suffix)] + suffix


def _overlap(key: MentionKey, document: int, spans: Spans) -> bool:
    return key[0] == document and any(
        start <= other_end and other_start <= end
        for start, end in key[1]
        for other_start, other_end in spans
    )


def _default_label(
    state: AnnotationState, key: MentionKey, mention_at: dict[MentionKey, int]
) -> str:
    """The text of the cluster's first mention, as the workspace labels a new cluster."""
    mention = state.mentions.get(mention_at[key]) or Mention(mention_at[key], *key, added=True)
    return state.default_label(mention)
