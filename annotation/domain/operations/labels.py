"""A cluster's default label follows its members.

A cluster is labelled with its first mention's text when it is made (assign, split, the
adjudication seed). When a move takes that mention out and leaves others behind, the label
would name a mention the cluster no longer holds: after a few adoptions in the adjudication
workspace the bank read like the wrong clusters. So the cluster then takes
the text of its first remaining member, in the same operation (one undo puts both back). A
label that is no leaving mention's text (one an annotator typed), or that another remaining
member still carries, stays.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import effects as fx
from ..state import AnnotationState


def relabel_effects(state: AnnotationState, leaving: Mapping[int, list[int]]) -> list[fx.Effect]:
    """`leaving`: cluster id -> the mentions moving out of it (the cluster keeps others)."""
    if state.mention_text is None:
        return []  # no texts: labels are what the annotator typed or "mention #id"
    effects = []
    for id, gone in sorted(leaving.items()):
        cluster = state.clusters[id]
        if cluster.label not in {state.default_label(state.mentions[m]) for m in gone}:
            continue
        going = set(gone)
        stay = sorted(
            (state.mentions[m] for m in cluster.members if m not in going),
            key=lambda m: (state.document_number(m.document), m.spans, m.id),
        )
        texts = [state.default_label(m) for m in stay]
        if stay and cluster.label not in texts and texts[0] != cluster.label:
            effects.append(fx.label_set(id, cluster.label, texts[0]))
    return effects
