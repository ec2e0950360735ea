"""Notes and attributes on links and clusters (a cluster's note is `clusters.set_note`).

An attribute is one of the project's (`Settings.attributes`: a name and its allowed values,
defined by the admin); a link or a cluster carries at most one value of each, and the value
None clears it. A refusal names the allowed values, so that the annotator can pick one.
"""

from __future__ import annotations

from .. import effects as fx
from ..errors import InvalidOperation, NoChange, NotFound, TextTooLong
from ..state import AnnotationState, Link
from .clusters import NOTE_MAX_CHARS, require_cluster
from .result import OperationResult


def require_link(state: AnnotationState, link: Link) -> None:
    if link not in state.links:
        raise NotFound(
            "link",
            list(link),
            f"There is no {link.type} link from {state.mention_name(link.anaphor)} to "
            f"{state.mention_name(link.antecedent)}.",
        )


def link_name(state: AnnotationState, link: Link) -> str:
    """How messages name a link: its type and its two mentions."""
    return (
        f"the {link.type} link from {state.mention_name(link.anaphor)} to "
        f"{state.mention_name(link.antecedent)}"
    )


def check_attribute(state: AnnotationState, name: str, value: str | None) -> None:
    """Refuse an attribute the project does not define, or a value it does not allow."""
    allowed = state.settings.attribute_values(name)
    if allowed is None:
        names = [defined for defined, _ in state.settings.attributes]
        known = f"its attributes are {', '.join(names)}" if names else "it defines none"
        raise InvalidOperation("name", f"this project has no attribute {name!r}: {known}")
    if value is not None and value not in allowed:
        raise InvalidOperation(
            "value", f"{name} must be one of {', '.join(allowed)}, not {value!r}"
        )


def set_link_note(state: AnnotationState, *, link: Link, note: str) -> OperationResult:
    require_link(state, link)
    if len(note) > NOTE_MAX_CHARS:
        raise TextTooLong("note", NOTE_MAX_CHARS, len(note))
    note = note.strip()
    old = state.link_notes.get(link, "")
    if note == old:
        raise NoChange(f"{link_name(state, link).capitalize()} already has this note.")
    return OperationResult([fx.link_note_set(link, old, note)])


def set_link_attribute(
    state: AnnotationState, *, link: Link, name: str, value: str | None
) -> OperationResult:
    require_link(state, link)
    check_attribute(state, name, value)
    old = state.link_attributes.get(link, {}).get(name)
    if value == old:
        raise NoChange(_same(link_name(state, link).capitalize(), name, value))
    return OperationResult([fx.link_attribute_set(link, name, old, value)])


def set_cluster_attribute(
    state: AnnotationState, *, cluster: int, name: str, value: str | None
) -> OperationResult:
    require_cluster(state, cluster)
    check_attribute(state, name, value)
    old = state.clusters[cluster].attributes.get(name)
    if value == old:
        raise NoChange(_same(f"Cluster {state.cluster_name(cluster)}", name, value))
    return OperationResult([fx.cluster_attribute_set(cluster, name, old, value)])


def _same(what: str, name: str, value: str | None) -> str:
    if value is None:
        return f"{what} has no {name} to clear."
    return f"{what} already has {name} {value}."
