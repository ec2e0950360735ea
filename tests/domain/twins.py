"""The golden cases that the Python and TypeScript twins share (fixtures/golden/twins/).

The states of those files have the shape of `AnnotationState.snapshot()` less settings;
`state_from` builds one, `picture` gives it back in that shape.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from annotation.domain.state import AnnotationState, Cluster, Link, Mention, Validation

TWINS = Path(__file__).resolve().parents[2] / "fixtures" / "golden" / "twins"


def golden(name: str) -> dict[str, Any]:
    return json.loads((TWINS / f"{name}.json").read_text())


def case_id(case: dict[str, Any]) -> str:
    return f"{case.get('kind', 'case')}: {case['name']}"


def state_from(data: dict[str, Any]) -> AnnotationState:
    """An AnnotationState from the golden files' rows (the snapshot's shape, no settings)."""
    clusters = {
        id: Cluster(id, label, note, set(members)) for id, label, note, members in data["clusters"]
    }
    for id, name, value in data.get("cluster_attributes", []):
        clusters[id].attributes[name] = value
    link_attributes: dict[Link, dict[str, str]] = {}
    for type, anaphor, antecedent, name, value in data.get("link_attributes", []):
        link_attributes.setdefault(Link(type, anaphor, antecedent), {})[name] = value
    return AnnotationState(
        documents=dict(data["documents"]),
        mentions={
            id: Mention(id, document, spans, added, rejected)
            for id, document, spans, added, rejected in data["mentions"]
        },
        clusters=clusters,
        edges={(parent, child) for parent, child in data.get("edges", [])},
        links={Link(*link) for link in data.get("links", [])},
        decisions=dict(data.get("decisions", [])),
        validations={
            id: Validation(decision, reason, note)
            for id, decision, reason, note in data.get("validations", [])
        },
        link_notes={Link(t, a, b): note for t, a, b, note in data.get("link_notes", [])},
        link_attributes=link_attributes,
    )


def picture(state: AnnotationState) -> dict[str, Any]:
    """The state in the golden files' shape: its snapshot less settings."""
    snapshot = state.snapshot()
    del snapshot["settings"]
    return snapshot
