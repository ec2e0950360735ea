"""Cluster operations: assign, merge, split, rename, set_note."""

from __future__ import annotations

from .. import effects as fx
from ..errors import InvalidOperation, NoChange, NotFound, TextTooLong
from ..state import AnnotationState
from .graph import ancestor_path, cycle_error
from .moves import cluster_deletion, move_effects, unreject_effects
from .result import NewId, OperationResult

NOTE_SEPARATOR = "\n\n"
# What one operation may write (docs/decisions.md); a merge may join two notes past the limit.
LABEL_MAX_CHARS = 200
NOTE_MAX_CHARS = 10_000


def require_cluster(state: AnnotationState, id: int) -> None:
    if id not in state.clusters:
        raise NotFound("cluster", id)


def require_mention(state: AnnotationState, id: int) -> None:
    if id not in state.mentions:
        raise NotFound("mention", id)


def assign(
    state: AnnotationState, *, mention: int, cluster: int | None, new_id: NewId
) -> OperationResult:
    """Move `mention` into `cluster`, or into a new cluster labelled with its text (None).

    A cluster the mention leaves empty is deleted (children re-attached to its parents).
    A rejected mention is reopened. Refused when nothing would change.
    """
    require_mention(state, mention)
    if cluster is not None:
        require_cluster(state, cluster)
    old = state.mention_cluster.get(mention)
    if cluster is not None and old == cluster:
        raise NoChange(
            f"{state.mention_name(mention)} is already in cluster {state.cluster_name(cluster)}."
        )
    if cluster is None and old is not None and state.clusters[old].members == {mention}:
        raise NoChange(
            f"{state.mention_name(mention)} is already alone in cluster {state.cluster_name(old)}."
        )
    effects = unreject_effects(state, [mention])
    created = {}
    if cluster is None:
        cluster = created["cluster"] = new_id("cluster")
        effects.append(fx.cluster_created(cluster, state.default_label(state.mentions[mention])))
    moves, warnings = move_effects(state, [(mention, cluster)])
    return OperationResult(effects + moves, warnings, created)


def split(state: AnnotationState, *, mentions: list[int], new_id: NewId) -> OperationResult:
    """Move `mentions` out of their cluster(s) into one new cluster without edges.

    The new cluster is labelled with the text of the first mention listed. Unassigned and
    rejected mentions may be listed too (they join the new cluster; rejected ones reopen).
    Refused when the mentions are exactly the members of one cluster: nothing to split.
    """
    for mention in mentions:
        require_mention(state, mention)
    sources = {state.mention_cluster.get(m) for m in mentions}
    source = sources.pop() if len(sources) == 1 else None
    if source is not None and len(state.clusters[source].members) == len(mentions):
        raise NoChange(
            f"These are all the mentions of cluster {state.cluster_name(source)}: "
            "nothing to split off."
        )
    effects = unreject_effects(state, mentions)
    cluster = new_id("cluster")
    effects.append(fx.cluster_created(cluster, state.default_label(state.mentions[mentions[0]])))
    moves, warnings = move_effects(state, [(m, cluster) for m in mentions])
    return OperationResult(effects + moves, warnings, {"cluster": cluster})


def merge(state: AnnotationState, *, source: int, target: int) -> OperationResult:
    """Merge `source` into `target`: target keeps id, label and place, and gains the source's
    mentions, children and parents; the source's note is appended to the target's.

    Refused if the merge would close a cycle (one is an ancestor of the other through a third
    cluster). Under single-parent, when both have a different parent the target's wins and
    the source's parent edge is dropped with a warning.
    """
    require_cluster(state, source)
    require_cluster(state, target)
    if source == target:
        raise NoChange(f"Cannot merge cluster {state.cluster_name(source)} into itself.")
    action = f"Merging {state.cluster_name(source)} into {state.cluster_name(target)}"
    for top, bottom in ((source, target), (target, source)):
        path = ancestor_path(state, bottom, top, ignore_parent=top)
        if path is not None:
            raise cycle_error(state, action, path + [top])

    effects = [fx.member_set(m, source, target) for m in sorted(state.clusters[source].members)]
    source_parents = state.parents[source] - {target}
    source_children = state.children[source] - {target}
    effects += [fx.edge_removed(p, source) for p in sorted(state.parents[source])]
    effects += [fx.edge_removed(source, c) for c in sorted(state.children[source])]
    warnings = []
    target_parents = state.parents[target] - {source}
    new_parents = source_parents - target_parents
    if state.settings.single_parent and target_parents and new_parents:
        for parent in sorted(new_parents):
            warnings.append(
                f"The edge {state.cluster_name(parent)} -> {state.cluster_name(source)} was "
                f"dropped: under single parent, {state.cluster_name(target)} keeps its parent "
                f"{state.cluster_name(next(iter(target_parents)))}."
            )
        new_parents = set()
    effects += [fx.edge_added(p, target) for p in sorted(new_parents)]
    effects += [fx.edge_added(target, c) for c in sorted(source_children - state.children[target])]

    source_note, target_note = state.clusters[source].note, state.clusters[target].note
    if source_note.strip():
        merged = target_note + NOTE_SEPARATOR + source_note if target_note.strip() else source_note
        effects.append(fx.note_set(target, target_note, merged))
    # The target keeps its own attribute values; it takes the source's where it has none.
    target_values = state.clusters[target].attributes
    for name, value in sorted(state.clusters[source].attributes.items()):
        if name not in target_values:
            effects.append(fx.cluster_attribute_set(target, name, None, value))
        elif target_values[name] != value:
            warnings.append(
                f"{state.cluster_name(target)} keeps its {name} {target_values[name]!r}; "
                f"{state.cluster_name(source)} had {value!r}."
            )
    effects += cluster_deletion(state, source)
    return OperationResult(effects, warnings)


def rename(state: AnnotationState, *, cluster: int, label: str) -> OperationResult:
    """Set a cluster's label (surrounding whitespace trimmed; an empty label is refused)."""
    require_cluster(state, cluster)
    label = label.strip()
    if not label:
        raise InvalidOperation("label", "a cluster needs a non-empty label")
    if len(label) > LABEL_MAX_CHARS:
        raise TextTooLong("label", LABEL_MAX_CHARS, len(label))
    old = state.clusters[cluster].label
    if label == old:
        raise NoChange(f"Cluster {state.cluster_name(cluster)} already has this label.")
    return OperationResult([fx.label_set(cluster, old, label)])


def set_note(state: AnnotationState, *, cluster: int, note: str) -> OperationResult:
    require_cluster(state, cluster)
    if len(note) > NOTE_MAX_CHARS:
        raise TextTooLong("note", NOTE_MAX_CHARS, len(note))
    old = state.clusters[cluster].note
    if note == old:
        raise NoChange(f"Cluster {state.cluster_name(cluster)} already has this note.")
    return OperationResult([fx.note_set(cluster, old, note)])
