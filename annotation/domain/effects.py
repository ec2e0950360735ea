"""Primitive, invertible changes of an annotation, as JSON-able dicts.

Effects are the contract between the planner, the in-memory state, the operation log, the
database layer (which applies the same effects as SQL) and the live-update broadcast:

    {"e": "cluster_created", "cluster": id, "label": str, "note": str}
    {"e": "cluster_deleted", "cluster": id, "label": str, "note": str}
    {"e": "member_set", "mention": id, "old": cluster id | None, "new": cluster id | None}
    {"e": "edge_added" | "edge_removed", "parent": id, "child": id}
    {"e": "label_set" | "note_set", "cluster": id, "old": str, "new": str}
    {"e": "link_added" | "link_removed", "type": str, "anaphor": id, "antecedent": id}
    {"e": "link_note_set", "type": str, "anaphor": id, "antecedent": id, "old": str, "new": str}
    {"e": "link_attribute_set", "type": str, "anaphor": id, "antecedent": id, "name": str,
     "old": str | None, "new": str | None}
    {"e": "cluster_attribute_set", "cluster": id, "name": str, "old": str | None,
     "new": str | None}
    {"e": "mention_added" | "mention_removed", "mention": id, "document": id,
     "spans": [[start, end], ...]}
    {"e": "spans_set", "mention": id, "old": [[s, e], ...], "new": [[s, e], ...]}
    {"e": "rejected_set", "mention": id, "old": bool, "new": bool}
    {"e": "suggestion_decided", "suggestion": id, "old": decision | None, "new": decision | None}
    {"e": "validation_set", "mention": id, "old": validation | None, "new": validation | None}
      (a validation: {"decision": "accepted" | "rejected", "reason": key | None, "note": str})

Order matters and planners respect it: a cluster is created before mentions move into it;
a cluster is deleted only once empty and without edges (moves and edge removals first); an
edge is removed before the one replacing it is added; a mention's links are removed and it
leaves its cluster before it is marked rejected; a link's note and attributes are cleared
before it is removed, a cluster's attributes before it is deleted (so that undo restores
them: `link_removal` and `cluster_deletion` in operations/). `mention_added` always creates
an added, unassigned, non-rejected mention, and `mention_removed` only removes such a one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn

from corefscore.corpus import LINK_TYPES

from .errors import CorruptEffects
from .state import DECISIONS, AnnotationState, Link, Mention, Spans, Validation, as_spans

Effect = dict[str, Any]

_INVERSE_NAME = {
    "cluster_created": "cluster_deleted",
    "cluster_deleted": "cluster_created",
    "edge_added": "edge_removed",
    "edge_removed": "edge_added",
    "link_added": "link_removed",
    "link_removed": "link_added",
    "mention_added": "mention_removed",
    "mention_removed": "mention_added",
}
_SWAPPED = {
    "member_set",
    "label_set",
    "note_set",
    "spans_set",
    "rejected_set",
    "suggestion_decided",
    "validation_set",
    "link_note_set",
    "link_attribute_set",
    "cluster_attribute_set",
}


def spans_json(spans: Spans) -> list[list[int]]:
    return [[start, end] for start, end in spans]


# -- constructors ------------------------------------------------------------------------


def cluster_created(cluster: int, label: str, note: str = "") -> Effect:
    return {"e": "cluster_created", "cluster": cluster, "label": label, "note": note}


def cluster_deleted(cluster: int, label: str, note: str) -> Effect:
    return {"e": "cluster_deleted", "cluster": cluster, "label": label, "note": note}


def member_set(mention: int, old: int | None, new: int | None) -> Effect:
    return {"e": "member_set", "mention": mention, "old": old, "new": new}


def edge_added(parent: int, child: int) -> Effect:
    return {"e": "edge_added", "parent": parent, "child": child}


def edge_removed(parent: int, child: int) -> Effect:
    return {"e": "edge_removed", "parent": parent, "child": child}


def label_set(cluster: int, old: str, new: str) -> Effect:
    return {"e": "label_set", "cluster": cluster, "old": old, "new": new}


def note_set(cluster: int, old: str, new: str) -> Effect:
    return {"e": "note_set", "cluster": cluster, "old": old, "new": new}


def link_added(link: Link) -> Effect:
    return {
        "e": "link_added",
        "type": link.type,
        "anaphor": link.anaphor,
        "antecedent": link.antecedent,
    }


def link_removed(link: Link) -> Effect:
    return {
        "e": "link_removed",
        "type": link.type,
        "anaphor": link.anaphor,
        "antecedent": link.antecedent,
    }


def _link_fields(link: Link) -> Effect:
    return {"type": link.type, "anaphor": link.anaphor, "antecedent": link.antecedent}


def link_note_set(link: Link, old: str, new: str) -> Effect:
    return {"e": "link_note_set", **_link_fields(link), "old": old, "new": new}


def link_attribute_set(link: Link, name: str, old: str | None, new: str | None) -> Effect:
    return {"e": "link_attribute_set", **_link_fields(link), "name": name, "old": old, "new": new}


def cluster_attribute_set(cluster: int, name: str, old: str | None, new: str | None) -> Effect:
    return {"e": "cluster_attribute_set", "cluster": cluster, "name": name, "old": old, "new": new}


def mention_added(mention: int, document: int, spans: Spans) -> Effect:
    return {
        "e": "mention_added",
        "mention": mention,
        "document": document,
        "spans": spans_json(spans),
    }


def spans_set(mention: int, old: Spans, new: Spans) -> Effect:
    return {"e": "spans_set", "mention": mention, "old": spans_json(old), "new": spans_json(new)}


def rejected_set(mention: int, old: bool, new: bool) -> Effect:
    return {"e": "rejected_set", "mention": mention, "old": old, "new": new}


def suggestion_decided(suggestion: int, old: str | None, new: str | None) -> Effect:
    return {"e": "suggestion_decided", "suggestion": suggestion, "old": old, "new": new}


def validation_json(validation: Validation | None) -> dict[str, Any] | None:
    if validation is None:
        return None
    return {"decision": validation.decision, "reason": validation.reason, "note": validation.note}


def validation_set(mention: int, old: Validation | None, new: Validation | None) -> Effect:
    return {
        "e": "validation_set",
        "mention": mention,
        "old": validation_json(old),
        "new": validation_json(new),
    }


# -- inversion ---------------------------------------------------------------------------


def invert_effect(effect: Effect) -> Effect:
    name = effect["e"]
    if name in _SWAPPED:
        return {**effect, "old": effect["new"], "new": effect["old"]}
    if name in _INVERSE_NAME:
        return {**effect, "e": _INVERSE_NAME[name]}
    raise CorruptEffects(f"unknown effect {name!r}", effect=effect)


def invert_effects(effects: Iterable[Effect]) -> list[Effect]:
    """The effects that undo `effects`: each one inverted, in reverse order."""
    return [invert_effect(effect) for effect in reversed(list(effects))]


# -- application -------------------------------------------------------------------------


def apply_effects(state: AnnotationState, effects: Iterable[Effect]) -> None:
    """Apply effects in place, checking each one's precondition against the state.

    All or nothing: when an effect does not fit (a corrupt or misordered log), the ones
    already applied are rolled back and `CorruptEffects` is raised.
    """
    effects = list(effects)
    for index, effect in enumerate(effects):
        try:
            _apply_one(state, effect)
        except CorruptEffects:
            for applied in invert_effects(effects[:index]):
                _apply_one(state, applied)
            raise
        except (KeyError, TypeError, ValueError) as error:
            for applied in invert_effects(effects[:index]):
                _apply_one(state, applied)
            raise CorruptEffects(f"malformed effect #{index}: {error!r}", effect=effect) from error


def _require(condition: bool, effect: Effect, why: str) -> None:
    if not condition:
        _refuse(effect, why)


def _refuse(effect: Effect, why: str) -> NoReturn:
    raise CorruptEffects(f"cannot apply {effect['e']}: {why}", effect=effect)


def _apply_one(state: AnnotationState, effect: Effect) -> None:
    name = effect["e"]
    handler = _HANDLERS.get(name)
    if handler is None:
        _refuse(effect, "unknown effect")
    handler(state, effect)


def _cluster_created(state: AnnotationState, e: Effect) -> None:
    _require(e["cluster"] not in state.clusters, e, "the cluster exists")
    _require(
        isinstance(e["label"], str) and isinstance(e["note"], str), e, "label and note are text"
    )
    state.create_cluster(e["cluster"], e["label"], e["note"])


def _cluster_deleted(state: AnnotationState, e: Effect) -> None:
    id = e["cluster"]
    cluster = state.clusters.get(id)
    if cluster is None:
        _refuse(e, "no such cluster")
    _require((cluster.label, cluster.note) == (e["label"], e["note"]), e, "label or note differ")
    _require(not cluster.members, e, "the cluster still has members")
    _require(not cluster.attributes, e, "the cluster still has attributes")
    _require(not state.parents[id] and not state.children[id], e, "the cluster still has edges")
    state.delete_cluster(id)


def _member_set(state: AnnotationState, e: Effect) -> None:
    mention, new = e["mention"], e["new"]
    _require(mention in state.mentions, e, "no such mention")
    _require(state.mention_cluster.get(mention) == e["old"], e, "the mention is elsewhere")
    if new is not None:
        _require(new in state.clusters, e, "no such cluster")
        _require(not state.mentions[mention].rejected, e, "the mention is rejected")
    state.set_member(mention, new)


def _edge_added(state: AnnotationState, e: Effect) -> None:
    parent, child = e["parent"], e["child"]
    _require(parent in state.clusters and child in state.clusters, e, "no such cluster")
    _require(parent != child, e, "self-loop")
    _require((parent, child) not in state.edges, e, "the edge exists")
    state.add_edge(parent, child)


def _edge_removed(state: AnnotationState, e: Effect) -> None:
    _require((e["parent"], e["child"]) in state.edges, e, "no such edge")
    state.remove_edge(e["parent"], e["child"])


def _label_set(state: AnnotationState, e: Effect) -> None:
    cluster = state.clusters.get(e["cluster"])
    if cluster is None or cluster.label != e["old"]:
        _refuse(e, "label differs")
    _require(isinstance(e["new"], str), e, "label is text")
    cluster.label = e["new"]


def _note_set(state: AnnotationState, e: Effect) -> None:
    cluster = state.clusters.get(e["cluster"])
    if cluster is None or cluster.note != e["old"]:
        _refuse(e, "note differs")
    _require(isinstance(e["new"], str), e, "note is text")
    cluster.note = e["new"]


def _link(e: Effect) -> Link:
    return Link(e["type"], e["anaphor"], e["antecedent"])


def _link_added(state: AnnotationState, e: Effect) -> None:
    link = _link(e)
    _require(link.type in LINK_TYPES, e, "unknown link type")
    _require(
        link.anaphor in state.mentions and link.antecedent in state.mentions, e, "no such mention"
    )
    _require(link not in state.links, e, "the link exists")
    state.add_link(link)


def _link_removed(state: AnnotationState, e: Effect) -> None:
    link = _link(e)
    _require(link in state.links, e, "no such link")
    _require(
        link not in state.link_notes and link not in state.link_attributes,
        e,
        "the link still has a note or attributes",
    )
    state.remove_link(link)


def _optional_text(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _link_note_set(state: AnnotationState, e: Effect) -> None:
    link = _link(e)
    _require(link in state.links, e, "no such link")
    _require(state.link_notes.get(link, "") == e["old"], e, "note differs")
    _require(isinstance(e["new"], str), e, "note is text")
    state.set_link_note(link, e["new"])


def _link_attribute_set(state: AnnotationState, e: Effect) -> None:
    link, name = _link(e), e["name"]
    _require(link in state.links, e, "no such link")
    _require(isinstance(name, str) and _optional_text(e["new"]), e, "name and value are text")
    _require(state.link_attributes.get(link, {}).get(name) == e["old"], e, "value differs")
    state.set_link_attribute(link, name, e["new"])


def _cluster_attribute_set(state: AnnotationState, e: Effect) -> None:
    cluster, name = state.clusters.get(e["cluster"]), e["name"]
    if cluster is None:
        _refuse(e, "no such cluster")
    _require(isinstance(name, str) and _optional_text(e["new"]), e, "name and value are text")
    _require(cluster.attributes.get(name) == e["old"], e, "value differs")
    state.set_cluster_attribute(cluster.id, name, e["new"])


def _mention_added(state: AnnotationState, e: Effect) -> None:
    _require(e["mention"] not in state.mentions, e, "the mention exists")
    _require(e["document"] in state.documents, e, "no such document")
    state.put_mention(Mention(e["mention"], e["document"], as_spans(e["spans"]), added=True))


def _mention_removed(state: AnnotationState, e: Effect) -> None:
    id = e["mention"]
    mention = state.mentions.get(id)
    if mention is None:
        _refuse(e, "no such mention")
    _require(mention.added and not mention.rejected, e, "only an added, active mention is removed")
    _require(
        (mention.document, mention.spans) == (e["document"], as_spans(e["spans"])),
        e,
        "spans differ",
    )
    _require(id not in state.mention_cluster and not state.mention_links[id], e, "still in use")
    state.remove_mention(id)


def _spans_set(state: AnnotationState, e: Effect) -> None:
    mention = state.mentions.get(e["mention"])
    if mention is None or mention.spans != as_spans(e["old"]):
        _refuse(e, "spans differ")
    new = as_spans(e["new"])
    _require(len(new) > 0, e, "no spans")
    state.put_mention(Mention(mention.id, mention.document, new, mention.added, mention.rejected))


def _rejected_set(state: AnnotationState, e: Effect) -> None:
    mention = state.mentions.get(e["mention"])
    if mention is None or mention.rejected is not e["old"]:
        _refuse(e, "rejected flag differs")
    _require(isinstance(e["new"], bool), e, "rejected is a boolean")
    if e["new"]:
        in_use = mention.id in state.mention_cluster or state.mention_links[mention.id]
        _require(not in_use, e, "a rejected mention has no cluster and no links")
    state.put_mention(Mention(mention.id, mention.document, mention.spans, mention.added, e["new"]))


def _suggestion_decided(state: AnnotationState, e: Effect) -> None:
    id, new = e["suggestion"], e["new"]
    _require(state.decisions.get(id) == e["old"], e, "decision differs")
    _require(new is None or new in DECISIONS, e, "unknown decision")
    if new is None:
        del state.decisions[id]
    else:
        state.decisions[id] = new


def _validation(value: Any) -> Validation | None:
    if value is None:
        return None
    decision, reason, note = value["decision"], value["reason"], value["note"]
    if decision not in DECISIONS or not isinstance(note, str):
        raise ValueError(f"not a validation: {value!r}")
    if (decision == "rejected") != isinstance(reason, str):
        raise ValueError(f"a rejection, and only a rejection, has a reason: {value!r}")
    return Validation(decision, reason, note)


def _validation_set(state: AnnotationState, e: Effect) -> None:
    mention = e["mention"]
    _require(mention in state.mentions, e, "no such mention")
    _require(state.validations.get(mention) == _validation(e["old"]), e, "validation differs")
    state.set_validation(mention, _validation(e["new"]))


_HANDLERS = {
    "cluster_created": _cluster_created,
    "cluster_deleted": _cluster_deleted,
    "member_set": _member_set,
    "edge_added": _edge_added,
    "edge_removed": _edge_removed,
    "label_set": _label_set,
    "note_set": _note_set,
    "link_added": _link_added,
    "link_removed": _link_removed,
    "link_note_set": _link_note_set,
    "link_attribute_set": _link_attribute_set,
    "cluster_attribute_set": _cluster_attribute_set,
    "mention_added": _mention_added,
    "mention_removed": _mention_removed,
    "spans_set": _spans_set,
    "rejected_set": _rejected_set,
    "suggestion_decided": _suggestion_decided,
    "validation_set": _validation_set,
}

# Every kind of effect there is (the golden cases of fixtures/golden/twins/ cover each one).
EFFECT_KINDS = frozenset(_HANDLERS)
