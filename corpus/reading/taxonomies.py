"""Seed taxonomies read into concept groups, pure Python (no Django), every problem in words
and nothing returned until the whole file is clean (docs/corpus.md, "Concept groups").

Four shapes:
- `hierarchy-json`: Papers With Code's nesting, a node or a list of nodes, each
  `{"name": str, "children": [node, ...]}` (children optional). Every node with children
  makes one group, named after it: the node's name, then its children's.
- `hierarchy-csv`: `parent,child` lines (a `parent,child` header is skipped); each parent's
  children, in file order, make its group as above.
- `groups-json`: curated flat groups, `{"group": ["concept", ...], ...}`.
- `groups-csv`: `group,concept` lines (a `group,concept` header is skipped).

A concept listed twice in one group counts once (case and spacing aside)."""

from __future__ import annotations

import csv
import io
import json
from collections import deque
from dataclasses import dataclass, field

TAXONOMY_FORMATS = ("hierarchy-json", "hierarchy-csv", "groups-json", "groups-csv")
MAX_NAME = 300
MAX_CONCEPTS = 1000
MAX_GROUPS = 100_000
MAX_LISTED = 200


@dataclass
class GroupRecord:
    name: str
    kind: str  # "hierarchy" or "flat"
    concepts: list[str] = field(default_factory=list)

    def add(self, concept: str) -> None:
        key = " ".join(concept.split()).casefold()
        if all(" ".join(c.split()).casefold() != key for c in self.concepts):
            self.concepts.append(concept)


@dataclass
class TaxonomyReport:
    groups: list[GroupRecord] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    error_count: int = 0

    @property
    def ok(self) -> bool:
        return not self.error_count

    def error(self, message: str) -> None:
        self.error_count += 1
        if len(self.errors) < MAX_LISTED:
            self.errors.append(message)


def taxonomy_read(format: str, data: bytes, *, name: str = "the file") -> TaxonomyReport:
    """The groups of `data`, or (report.ok False) every problem found in it."""
    report = TaxonomyReport()
    if format not in TAXONOMY_FORMATS:
        report.error(
            f"'{format}' is not a taxonomy format; use one of {', '.join(TAXONOMY_FORMATS)}"
        )
        return report
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        report.error(f"{name} is not UTF-8 text (byte {error.start})")
        return report
    if not text.strip():
        report.error(f"{name} is empty: there are no groups in it")
        return report
    reader = {
        "hierarchy-json": _hierarchy_json,
        "hierarchy-csv": _hierarchy_csv,
        "groups-json": _groups_json,
        "groups-csv": _groups_csv,
    }[format]
    reader(text, report, name)
    _check_groups(report, name)
    if not report.ok:
        report.groups = []
    return report


def _check_groups(report: TaxonomyReport, name: str) -> None:
    if report.ok and not report.groups:
        report.error(f"{name} has no group: a hierarchy needs a concept with children")
    if len(report.groups) > MAX_GROUPS:
        report.error(f"{name} has {len(report.groups):,} groups; at most {MAX_GROUPS:,} at once")
    for group in report.groups:
        if len(group.concepts) > MAX_CONCEPTS:
            report.error(
                f"group '{group.name}' has {len(group.concepts):,} concepts; "
                f"at most {MAX_CONCEPTS:,}"
            )


def _concept(value, report: TaxonomyReport, where: str) -> str | None:
    if not isinstance(value, str) or not value.strip():
        report.error(f"{where}: a concept must be a non-empty string, not {json.dumps(value)[:60]}")
        return None
    value = " ".join(value.split())
    if len(value) > MAX_NAME:
        report.error(f"{where}: '{value[:60]}...' is longer than {MAX_NAME} characters")
        return None
    return value


def _json(text: str, report: TaxonomyReport, name: str):
    try:
        return json.loads(text, object_pairs_hook=_pairs)
    except _DuplicateKey as duplicate:
        report.error(f"{name}: group '{duplicate.args[0]}' is given twice")
    except json.JSONDecodeError as error:
        report.error(f"{name} is not JSON: {error.msg} at line {error.lineno}")
    return None


class _DuplicateKey(ValueError):
    pass


def _pairs(pairs):
    seen: dict = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


def _hierarchy_json(text: str, report: TaxonomyReport, name: str) -> None:
    root = _json(text, report, name)
    if root is None:
        return
    if not isinstance(root, list | dict):
        report.error(f"{name}: a hierarchy is a node {{name, children}} or a list of nodes")
        return
    made: dict[str, GroupRecord] = {}
    nodes = root if isinstance(root, list) else [root]
    # breadth first: groups come in the file's order, a parent before its children's groups
    queue = deque((node, f"node {i + 1}") for i, node in enumerate(nodes))
    while queue:
        node, where = queue.popleft()
        if not isinstance(node, dict) or "name" not in node:
            report.error(f"{name}: {where} is not a node with a 'name'")
            continue
        parent = _concept(node["name"], report, f"{name}: {where}")
        children = node.get("children") or []
        if not isinstance(children, list):
            report.error(f"{name}: the children of '{node['name']}' are not a list")
            continue
        if parent is None or not children:
            continue
        group = made.get(parent)
        if group is None:
            group = made[parent] = GroupRecord(parent, "hierarchy", [parent])
            report.groups.append(group)
        for i, child in enumerate(children):
            inside = f"child {i + 1} of '{parent}'"
            if not isinstance(child, dict) or "name" not in child:
                report.error(f"{name}: {inside} is not a node with a 'name'")
                continue
            concept = _concept(child["name"], report, f"{name}: {inside}")
            if concept is not None:
                group.add(concept)
            queue.append((child, inside))


def _groups_json(text: str, report: TaxonomyReport, name: str) -> None:
    root = _json(text, report, name)
    if root is None:
        return
    if not isinstance(root, dict):
        report.error(f'{name}: curated groups are an object {{"group": ["concept", ...]}}')
        return
    for key, concepts in root.items():
        group_name = _concept(key, report, f"{name}: a group name")
        if not isinstance(concepts, list) or not concepts:
            report.error(f"{name}: group '{key}' needs a list of concepts")
            continue
        if group_name is None:
            continue
        group = GroupRecord(group_name, "flat")
        for i, value in enumerate(concepts):
            concept = _concept(value, report, f"{name}: concept {i + 1} of group '{key}'")
            if concept is not None:
                group.add(concept)
        report.groups.append(group)


def _rows(text: str, report: TaxonomyReport, name: str, header: tuple[str, str]):
    """(line, first, second) of a two-column CSV, a header row skipped."""
    for line, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        if not row or all(not cell.strip() for cell in row):
            continue
        if line == 1 and tuple(c.strip().lower() for c in row) == header:
            continue
        if len(row) != 2:
            report.error(
                f"{name} line {line}: {len(row)} columns; a line is {header[0]},{header[1]}"
            )
            continue
        first = _concept(row[0], report, f"{name} line {line}")
        second = _concept(row[1], report, f"{name} line {line}")
        if first is not None and second is not None:
            yield line, first, second


def _hierarchy_csv(text: str, report: TaxonomyReport, name: str) -> None:
    made: dict[str, GroupRecord] = {}
    for line, parent, child in _rows(text, report, name, ("parent", "child")):
        if parent.casefold() == child.casefold():
            report.error(f"{name} line {line}: '{parent}' is given as its own child")
            continue
        if parent not in made:
            made[parent] = GroupRecord(parent, "hierarchy", [parent])
            report.groups.append(made[parent])
        made[parent].add(child)


def _groups_csv(text: str, report: TaxonomyReport, name: str) -> None:
    made: dict[str, GroupRecord] = {}
    for _line, group_name, concept in _rows(text, report, name, ("group", "concept")):
        if group_name not in made:
            made[group_name] = GroupRecord(group_name, "flat")
            report.groups.append(made[group_name])
        made[group_name].add(concept)
