"""Ids inside JSON columns, read and rewritten the same way (pure: no Django).

Every function takes a value and `remap(space, old id) -> new id` and returns the value with
each id replaced; collecting ids is the same walk with a `remap` that records and returns its
argument, so what is collected and what is rewritten cannot disagree. Spaces are the id
spaces of the archive's tables (`mention`, `cluster`, ...). A value of the wrong shape raises
`ArchiveInvalid`: a hostile archive is refused, never half read. (ArchiveInvalid is a refused
import of the core's, itself pure.)

The list (docs/operations.md, "Project archives") is read from the writers:
- operation effects: annotation/domain/effects.py's vocabulary;
- operation payloads: the API's operations (annotation/api/serializers/operations.py), the
  accepted suggestion's nested operation, imports (`clusters`, `labelled`), adjudication
  seeds (`sources`); undo and redo name a log position (a version), not an id;
- suggestion payloads (modelserve/models.py), practice feedback (keys are mention ids),
  attempt diffs (onboarding/scores.py) and snapshots (the workspace payload).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from annotation.errors import ImportRefused

Remap = Callable[[str, int], int]


class ArchiveInvalid(ImportRefused):
    """The archive cannot be imported; the message says where and why (the API answers it as
    any refused import: 400 import_refused)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, [])


def _id(value: Any, space: str, remap: Remap, *, nullable: bool = True) -> Any:
    if value is None and nullable:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArchiveInvalid(f"a {space} id must be a whole number, not {value!r}")
    return remap(space, value)


def _fields(obj: Any, ids: dict[str, str], remap: Remap, where: str) -> dict:
    if not isinstance(obj, dict):
        raise ArchiveInvalid(f"{where} must be an object, not {type(obj).__name__}")
    out = dict(obj)
    for key, space in ids.items():
        if key in out:
            out[key] = _id(out[key], space, remap)
    return out


_CLUSTER = {"cluster": "cluster"}
_MENTION = {"mention": "mention"}
_EDGE = {"parent": "cluster", "child": "cluster"}
_LINK = {"anaphor": "mention", "antecedent": "mention"}
EFFECT_IDS: dict[str, dict[str, str]] = {
    "cluster_created": _CLUSTER,
    "cluster_deleted": _CLUSTER,
    "member_set": {"mention": "mention", "old": "cluster", "new": "cluster"},
    "edge_added": _EDGE,
    "edge_removed": _EDGE,
    "label_set": _CLUSTER,
    "note_set": _CLUSTER,
    "link_added": _LINK,
    "link_removed": _LINK,
    "link_note_set": _LINK,
    "link_attribute_set": _LINK,
    "cluster_attribute_set": _CLUSTER,
    "mention_added": {"mention": "mention", "document": "document"},
    "mention_removed": {"mention": "mention", "document": "document"},
    "spans_set": _MENTION,
    "rejected_set": _MENTION,
    "validation_set": _MENTION,
    "suggestion_decided": {"suggestion": "suggestion"},
}

PAYLOAD_IDS: dict[str, dict[str, str]] = {
    "assign": {"mention": "mention", "cluster": "cluster"},
    "merge": {"source": "cluster", "target": "cluster"},
    "split": {},  # `mentions`: a list, below
    "rename": _CLUSTER,
    "set_note": _CLUSTER,
    "set_parent": _EDGE,
    "add_edge": _EDGE,
    "remove_edge": _EDGE,
    "add_mention": {"document": "document"},
    "fix_span": _MENTION,
    "reject_mention": _MENTION,
    "add_link": _LINK,
    "remove_link": _LINK,
    "set_link_note": _LINK,
    "set_link_attribute": _LINK,
    "set_cluster_attribute": _CLUSTER,
    "retype_links": {},  # `links`: a list of links, below
    "accept_suggestion": {"suggestion": "suggestion"},  # and its nested `operation`
    "reject_suggestion": {"suggestion": "suggestion"},
    "validate": _MENTION,
    # `target` is the version undone or redone: a position in this annotation's log.
    "undo": {},
    "redo": {},
    "import": {},  # `clusters` and `labelled`, below
    "seed": {},  # a topic's seed handed to an annotator: like an import
    "adjudication_seed": {},  # `sources`, below
}


def effects_remap(effects: Any, remap: Remap) -> list:
    if not isinstance(effects, list):
        raise ArchiveInvalid("an operation's effects must be a list")
    out = []
    for effect in effects:
        name = effect.get("e") if isinstance(effect, dict) else None
        if not isinstance(name, str) or name not in EFFECT_IDS:
            raise ArchiveInvalid(f"unknown effect {name!r}")
        out.append(_fields(effect, EFFECT_IDS[name], remap, f"effect {name}"))
    return out


def payload_remap(payload: Any, remap: Remap) -> dict:
    name = payload.get("op") if isinstance(payload, dict) else None
    # `in` on a dict hashes the name: a list or an object there was a TypeError, not a message.
    if not isinstance(name, str) or name not in PAYLOAD_IDS:
        raise ArchiveInvalid(f"unknown operation {name!r} in a payload")
    out = _fields(payload, PAYLOAD_IDS[name], remap, f"operation {name}")
    if name == "split":
        out["mentions"] = _list(out.get("mentions"), "mention", remap)
    elif name == "retype_links":
        out["links"] = [
            _fields(link, _LINK, remap, "a retyped link") for link in _seq(out.get("links"))
        ]
    elif name == "accept_suggestion" and "operation" in out:
        out["operation"] = payload_remap(out["operation"], remap)
    elif name in ("import", "seed"):
        out["clusters"] = [_import_cluster(entry, remap) for entry in _seq(out.get("clusters"))]
        out["labelled"] = _list(out.get("labelled", []), "cluster", remap)
    elif name == "adjudication_seed":
        out["sources"] = [
            _fields(source, {"annotation": "annotation"}, remap, "a seed's source")
            for source in _seq(out.get("sources"))
        ]
    return out


def _seq(value: Any) -> list:
    if not isinstance(value, list):
        raise ArchiveInvalid(f"expected a list, not {type(value).__name__}")
    return value


def _list(value: Any, space: str, remap: Remap) -> list:
    return [_id(item, space, remap, nullable=False) for item in _seq(value)]


def _import_cluster(entry: Any, remap: Remap) -> list:
    # [server cluster id, the file's key]: exports give clusters their keys back.
    if not isinstance(entry, list) or len(entry) != 2:
        raise ArchiveInvalid("an imported cluster must be [id, key]")
    return [_id(entry[0], "cluster", remap, nullable=False), entry[1]]


SUGGESTION_IDS: dict[str, dict[str, str]] = {
    "cluster": {},  # `mentions`: a list, below
    "membership": {"mention": "mention", "cluster": "suggestion"},
    "edge": {"parent": "suggestion", "child": "suggestion"},
    "link": {
        "anaphor": "mention",
        "antecedent": "mention",
        "proposed_anaphor": "suggestion",
        "proposed_antecedent": "suggestion",
    },
    "mention": {"document": "document"},
}


def suggestion_payload_remap(kind: Any, payload: Any, remap: Remap) -> dict:
    if not isinstance(kind, str) or kind not in SUGGESTION_IDS:
        raise ArchiveInvalid(f"unknown suggestion kind {kind!r}")
    out = _fields(payload, SUGGESTION_IDS[kind], remap, f"a {kind} suggestion")
    if kind == "cluster":
        out["mentions"] = _list(out.get("mentions"), "mention", remap)
    return out


def feedback_remap(feedback: Any, remap: Remap) -> dict:
    """Practice feedback is keyed by candidate mention id, as a string."""
    if not isinstance(feedback, dict):
        raise ArchiveInvalid("practice feedback must be an object")
    out = {}
    for key, value in feedback.items():
        if not isinstance(key, str) or not key.isdecimal():
            raise ArchiveInvalid(f"practice feedback is keyed by mention ids, not {key!r}")
        out[str(remap("mention", int(key)))] = value
    return out


_DIFF_ENTRY = {"mention": "mention", "cluster": "cluster"}


# What gold has and the annotator lacks is a count in an attempt's feedback (it names no
# gold member); archives written before that hold lists there.
_DIFF_COUNTS = ("missing_edges", "missing_links")


def diff_remap(diff: Any, remap: Remap) -> dict:
    if not isinstance(diff, dict):
        raise ArchiveInvalid("an attempt's diff must be an object")
    out = dict(diff)
    for key in ("mentions", "clusters", *_DIFF_COUNTS, "extra_edges", "extra_links"):
        if key not in out:
            continue
        value = out[key]
        if key in _DIFF_COUNTS and isinstance(value, int) and not isinstance(value, bool):
            continue
        out[key] = [_fields(e, _DIFF_ENTRY, remap, "a diff entry") for e in _seq(value)]
    return out


def snapshot_remap(snapshot: Any, remap: Remap) -> dict:
    if not isinstance(snapshot, dict):
        raise ArchiveInvalid("an attempt's snapshot must be an object")
    out = dict(snapshot)
    if "clusters" in out:
        out["clusters"] = [
            {
                **_fields(c, {"id": "cluster"}, remap, "a snapshot cluster"),
                "members": _list(c.get("members", []), "mention", remap),
            }
            for c in _seq(out["clusters"])
        ]
    if "edges" in out:
        out["edges"] = [_list(edge, "cluster", remap) for edge in _seq(out["edges"])]
    if "links" in out:
        out["links"] = [_snapshot_link(link, remap) for link in _seq(out["links"])]
    if "mentions" in out:
        out["mentions"] = [
            _fields(m, {"id": "mention", "document": "document"}, remap, "a snapshot mention")
            for m in _seq(out["mentions"])
        ]
    return out


def _snapshot_link(link: Any, remap: Remap) -> list:
    if not isinstance(link, list) or len(link) != 3:
        raise ArchiveInvalid("a snapshot link must be [type, anaphor, antecedent]")
    return [link[0], *_list(link[1:], "mention", remap)]
