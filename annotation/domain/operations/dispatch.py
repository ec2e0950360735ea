"""`plan(state, op, new_id)`: the one entry point from an operation's JSON to its effects."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from corefscore.corpus import LINK_TYPES

from ..errors import InvalidOperation
from ..state import AnnotationState, Link
from . import bulk, clusters, hierarchy, links, mentions, notes, suggestions, validation
from .names import BULK_OPERATIONS, DECISION_OPERATIONS, OperationName, operation_names_check
from .payload import Payload
from .result import NewId, OperationResult


def plan(state: AnnotationState, op: dict[str, Any], new_id: NewId) -> OperationResult:
    """Plan `op` (its JSON form, see docs/architecture.md) against `state`.

    Never mutates `state`; `new_id` is called only once the operation is known to succeed.
    Raises a `DomainError` saying why when the operation is refused. Every planned result
    has at least one effect.
    """
    return _plan(state, Payload(op), new_id, nested=False)


def _plan(state: AnnotationState, op: Payload, new_id: NewId, *, nested: bool) -> OperationResult:
    name = op.text("op")
    planner = _BY_NAME.get(name)
    if planner is None or (nested and name in _NOT_NESTED):
        allowed = sorted(set(_BY_NAME) - (_NOT_NESTED if nested else set()))
        raise InvalidOperation(op.field("op"), f"must be one of {', '.join(allowed)}, not {name!r}")
    return planner(state, op, new_id)


def _accept_suggestion(state: AnnotationState, op: Payload, new_id: NewId) -> OperationResult:
    suggestion = op.id("suggestion")
    inner_op = op.nested("operation")
    suggestions.check_acceptable(state, suggestion)
    inner = _plan(state, inner_op, new_id, nested=True)
    return suggestions.accept_suggestion(state, suggestion=suggestion, inner=inner)


def _validate(state: AnnotationState, op: Payload, new_id: NewId) -> OperationResult:
    decision = op.choice("decision", ("accepted", "rejected"))
    reason = op.op.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise InvalidOperation(op.field("reason"), f"must be a reason's key, not {reason!r}")
    note = op.text("note") if "note" in op.op else ""
    return validation.validate(
        state, mention=op.id("mention"), decision=decision, reason=reason, note=note
    )


def _link_of(op: Payload) -> Link:
    return Link(op.choice("type", LINK_TYPES), op.id("anaphor"), op.id("antecedent"))


def _add_mentions(state: AnnotationState, op: Payload, new_id: NewId) -> OperationResult:
    places = [(item.id("document"), item.spans("spans")) for item in op.objects("mentions")]
    return bulk.add_mentions(state, mentions=places, new_id=new_id)


# Never inside an accepted suggestion: a suggestion proposes one edit.
_NOT_NESTED: set[str] = set(DECISION_OPERATIONS) | set(BULK_OPERATIONS)

Planner = Callable[[AnnotationState, Payload, NewId], OperationResult]

# One planner per name of names.OPERATIONS (keys typed by name; the set checked below).
_PLANNERS: dict[OperationName, Planner] = {
    "assign": lambda s, op, new_id: clusters.assign(
        s, mention=op.id("mention"), cluster=op.optional_id("cluster"), new_id=new_id
    ),
    "merge": lambda s, op, new_id: clusters.merge(
        s, source=op.id("source"), target=op.id("target")
    ),
    "split": lambda s, op, new_id: clusters.split(s, mentions=op.ids("mentions"), new_id=new_id),
    "rename": lambda s, op, new_id: clusters.rename(
        s, cluster=op.id("cluster"), label=op.text("label", blank=False)
    ),
    "set_note": lambda s, op, new_id: clusters.set_note(
        s, cluster=op.id("cluster"), note=op.text("note")
    ),
    "set_parent": lambda s, op, new_id: hierarchy.set_parent(
        s, child=op.id("child"), parent=op.optional_id("parent")
    ),
    "add_edge": lambda s, op, new_id: hierarchy.add_edge(
        s, parent=op.id("parent"), child=op.id("child")
    ),
    "remove_edge": lambda s, op, new_id: hierarchy.remove_edge(
        s, parent=op.id("parent"), child=op.id("child")
    ),
    "add_mention": lambda s, op, new_id: mentions.add_mention(
        s, document=op.id("document"), spans=op.spans("spans"), new_id=new_id
    ),
    "fix_span": lambda s, op, new_id: mentions.fix_span(
        s, mention=op.id("mention"), spans=op.spans("spans")
    ),
    "reject_mention": lambda s, op, new_id: mentions.reject_mention(s, mention=op.id("mention")),
    "add_link": lambda s, op, new_id: links.add_link(
        s,
        type=op.choice("type", LINK_TYPES),
        anaphor=op.id("anaphor"),
        antecedent=op.id("antecedent"),
    ),
    "remove_link": lambda s, op, new_id: links.remove_link(
        s,
        type=op.choice("type", LINK_TYPES),
        anaphor=op.id("anaphor"),
        antecedent=op.id("antecedent"),
    ),
    "set_link_note": lambda s, op, new_id: notes.set_link_note(
        s, link=_link_of(op), note=op.text("note")
    ),
    "set_link_attribute": lambda s, op, new_id: notes.set_link_attribute(
        s, link=_link_of(op), name=op.text("name"), value=op.optional_text("value")
    ),
    "set_cluster_attribute": lambda s, op, new_id: notes.set_cluster_attribute(
        s, cluster=op.id("cluster"), name=op.text("name"), value=op.optional_text("value")
    ),
    "retype_links": lambda s, op, new_id: links.retype_links(
        s, links=op.links("links"), type=op.choice("type", LINK_TYPES)
    ),
    "add_mentions": _add_mentions,
    "reject_mentions": lambda s, op, new_id: bulk.reject_mentions(s, mentions=op.ids("mentions")),
    "accept_suggestion": _accept_suggestion,
    "reject_suggestion": lambda s, op, new_id: suggestions.reject_suggestion(
        s, suggestion=op.id("suggestion")
    ),
    "validate": _validate,
}

operation_names_check(_PLANNERS, "the planner dispatch")
_BY_NAME: dict[str, Planner] = {name: planner for name, planner in _PLANNERS.items()}
