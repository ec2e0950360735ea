"""Label Studio JSON export (labels plus relations), import only.

An export is a JSON list of tasks (a single task object is accepted too): ``data`` holds the
text, ``annotations[].result`` the regions: ``{"type": "labels", "id", "value": {"start",
"end", "text", "labels"}}`` (character offsets, end exclusive) and ``{"type": "relation",
"from_id", "to_id", "direction", "labels"}``.

Mapping (decisions in docs/formats.md):
- Each task is a topic (id = the task's ``id``) with one document: the text is the ``data``
  field the regions point into (the one where every region's ``text`` is found at its
  offsets; else the only string field), tokenised like brat's text (:mod:`chartokens`,
  cut at every region boundary); sentences are its lines.
- The annotation read is the first one not cancelled; a task's further annotations are
  counted in a warning (import each annotator's export with ``import_annotations``).
- Each ``labels`` region is a mention (its labels in ``metadata["label-studio"]``).
- A relation **marked as coreference** (one of its labels contains ``coref``,
  case-insensitive, or is in ``coref_labels``) joins its two regions in a cluster (clusters
  are the connected components, keys ``"1"``, ``"2"``... in text order); any other relation
  is a link: type = its first label (a ChEMU-Ref type name when it is one), anaphor =
  ``from_id`` and antecedent = ``to_id`` for ``direction`` ``right`` (reversed for
  ``left``; for ``bi`` the later region is the anaphor).
- Other result types (choices, text areas, ratings) are left out with a warning.
"""

from __future__ import annotations

import json
import os
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from corefscore.corpus import ClusterData, DocumentData, LinkData, MentionData, TopicData
from corefscore.formats._io import PathOrStream, display_name, is_int, open_text
from corefscore.formats.chartokens import tokenize
from corefscore.formats.errors import FormatErrors, ImportReport, Problems, Skipped
from corefscore.formats.linktypes import link_type

NAMESPACE = "label-studio"


def is_coreference(labels: Iterable[str], coref_labels: Iterable[str] = ()) -> bool:
    extra = {label.lower() for label in coref_labels}
    return any("coref" in label.lower() or label.lower() in extra for label in labels)


def read_label_studio(
    path_or_stream: PathOrStream,
    *,
    skip_invalid: bool = False,
    coref_labels: Iterable[str] = (),
) -> ImportReport:
    """Read a Label Studio JSON export (or a folder of them): one topic per task; a task is
    one record."""
    if isinstance(path_or_stream, (str, os.PathLike)) and Path(path_or_stream).is_dir():
        report = ImportReport()
        for each in sorted(Path(path_or_stream).rglob("*.json")):
            report.extend(read_label_studio(each, skip_invalid=True, coref_labels=coref_labels))
        if report.errors and not skip_invalid:
            raise FormatErrors(report.errors, report)
        return report
    file = display_name(path_or_stream)
    report = ImportReport()
    with open_text(path_or_stream) as stream:
        text = stream.read()
    try:
        tasks = json.loads(text)
    except ValueError as error:
        problems = Problems(file)
        problems.error(None, None, f"not JSON ({error})")
        report.errors += problems.errors
        report.skipped.append(Skipped(file, None, tuple(problems.errors)))
    else:
        if isinstance(tasks, dict):
            # Label Studio exports a list; one task alone (hand-written or cut from an export)
            # is read as that task, and the user told so in case the list was lost.
            warned = Problems(file)
            warned.warn(None, None, "one task object, not a list of tasks: read as one task")
            report.warnings += warned.warnings
            tasks = [tasks]
        if not isinstance(tasks, list):
            problems = Problems(file)
            problems.error(None, None, "a Label Studio export is a list of tasks")
            report.errors += problems.errors
        else:
            for index, task in enumerate(tasks):
                problems = Problems(file)
                record = f"task[{index}]"
                topic = _task(task, record, problems, list(coref_labels))
                report.errors += problems.errors
                report.warnings += problems.warnings
                if problems.errors:
                    report.skipped.append(Skipped(file, record, tuple(problems.errors)))
                elif topic is not None:
                    report.topics.append(topic)
    if report.errors and not skip_invalid:
        raise FormatErrors(report.errors, report)
    return report


Region = dict[str, Any]


def _task(task: Any, record: str, problems: Problems, coref_labels: list[str]) -> TopicData | None:
    if not isinstance(task, dict) or not isinstance(task.get("data"), dict):
        problems.error(record, "data", "a task is an object with a data object")
        return None
    task_id = task.get("id", record)
    if not (is_int(task_id) or (isinstance(task_id, str) and task_id.strip())):
        problems.error(record, "id", f"a task id is a number or a text, not {task_id!r}")
        return None
    found = _results(task, record, problems)
    if found is None:
        return None
    regions, relations = found
    text = _text(task["data"], regions)
    if text is None:
        problems.error(record, "data", "no text field the regions point into")
        return None
    for region in regions.values():
        if region["end"] > len(text):
            problems.error(record, region["_where"], f"ends at {region['end']}, beyond the text")
        elif "text" in region and text[region["start"] : region["end"]] != region["text"]:
            problems.warn(record, region["_where"], "its text differs from the task's text")
    if problems.errors:
        return None
    ranges = tokenize(text, [o for r in regions.values() for o in (r["start"], r["end"])])
    topic = TopicData(external_id=str(task_id))
    topic.documents.append(
        DocumentData(
            doc_id=topic.external_id,
            tokens=[text[a:b] for a, b in ranges],
            sentences=_lines(text, ranges),
        )
    )
    index_of = _mentions(topic, regions, ranges, record, problems)
    _relations(topic, relations, index_of, coref_labels, record, problems)
    return None if problems.errors else topic


def _results(
    task: dict[str, Any], record: str, problems: Problems
) -> tuple[dict[str, Region], list[dict[str, Any]]] | None:
    """The first annotation not cancelled: its regions by id and its relations."""
    listed = task.get("annotations", [])
    if not isinstance(listed, list) or not all(isinstance(a, dict) for a in listed):
        problems.error(record, "annotations", "not a list of annotation objects")
        return None
    annotations = [a for a in listed if not a.get("was_cancelled")]
    if len(annotations) > 1:
        problems.warn(
            record,
            "annotations",
            f"{len(annotations) - 1} more annotation(s) left out: the first is read; import "
            "each annotator's export on its own",
        )
    results = annotations[0].get("result") or [] if annotations else []
    if not isinstance(results, list):
        problems.error(record, "annotations[0].result", "not a list")
        return None
    regions: dict[str, Region] = {}
    relations: list[dict[str, Any]] = []
    skipped: dict[str, int] = {}
    for number, result in enumerate(results):
        where = f"annotations[0].result[{number}]"
        kind = result.get("type") if isinstance(result, dict) else None
        if kind == "relation":
            relations.append({**result, "_where": where})
        elif kind == "labels":
            value = result.get("value")
            if not isinstance(value, dict):
                problems.error(record, f"{where}.value", "not an object")
                continue
            start, end = value.get("start"), value.get("end")
            if not (is_int(start) and is_int(end)) or not 0 <= start < end:
                problems.error(record, where, f"offsets {start!r}-{end!r} are not a span")
                continue
            if not _labels_ok(value.get("labels") or []):
                problems.error(record, f"{where}.value.labels", "not a list of texts")
                continue
            regions[str(result.get("id"))] = {**value, "_where": where}
        else:
            skipped[str(kind)] = skipped.get(str(kind), 0) + 1
    for kind, count in skipped.items():
        problems.warn(record, "result", f"{count} result(s) of type {kind} left out")
    return regions, relations


def _labels_ok(labels: Any) -> bool:
    # A string is iterable: read as a list it would become one label per character.
    return isinstance(labels, list) and all(isinstance(label, str) for label in labels)


def _mentions(
    topic: TopicData,
    regions: dict[str, Region],
    ranges: list[tuple[int, int]],
    record: str,
    problems: Problems,
) -> dict[str, int]:
    """A mention per region (regions on the same tokens share one); region id -> mention."""
    starts, ends = [a for a, _ in ranges], [b for _, b in ranges]
    index_of: dict[str, int] = {}
    spans_seen: dict[tuple[int, int], int] = {}
    for region_id, region in sorted(regions.items(), key=lambda r: (r[1]["start"], -r[1]["end"])):
        # A region may start or end in white space: it covers the tokens inside it.
        first = bisect_left(starts, region["start"])
        last = bisect_right(ends, region["end"]) - 1
        if first >= len(starts) or last < first:
            problems.error(record, region["_where"], "covers no token")
            continue
        if (first, last) in spans_seen:
            index_of[region_id] = spans_seen[(first, last)]
            continue
        spans_seen[(first, last)] = index_of[region_id] = len(topic.mentions)
        labels = list(region.get("labels") or [])
        topic.mentions.append(
            MentionData(0, ((first, last),), None, {NAMESPACE: {"id": region_id, "labels": labels}})
        )
    return index_of


def _relations(
    topic: TopicData,
    relations: list[dict[str, Any]],
    index_of: dict[str, int],
    coref_labels: list[str],
    record: str,
    problems: Problems,
) -> None:
    """Coreference relations join clusters (connected components); the others are links."""
    parent = list(range(len(topic.mentions)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for relation in relations:
        source, target = (index_of.get(str(relation.get(k))) for k in ("from_id", "to_id"))
        if source is None or target is None:
            problems.error(record, relation["_where"], "names a region that is not in the task")
            continue
        if source == target:
            where = relation["_where"]
            problems.error(record, where, "relates a region to itself (or one on its words)")
            continue
        labels = relation.get("labels") or []
        if not _labels_ok(labels):
            problems.error(record, f"{relation['_where']}.labels", "not a list of texts")
            continue
        if is_coreference(labels, coref_labels):
            parent[root(source)] = root(target)
            continue
        direction = relation.get("direction", "right")
        anaphor, antecedent = (target, source) if direction == "left" else (source, target)
        if direction == "bi" and anaphor < antecedent:
            anaphor, antecedent = antecedent, anaphor
        name = labels[0] if labels else "relation"
        topic.links.append(LinkData(link_type(name) or name, anaphor, antecedent))
    groups: dict[int, list[int]] = {}
    for i in range(len(topic.mentions)):
        groups.setdefault(root(i), []).append(i)
    for members in sorted(g for g in groups.values() if len(g) > 1):
        key = str(len(topic.clusters) + 1)
        topic.clusters.append(ClusterData(key))
        for i in members:
            topic.mentions[i].cluster = key


def _text(data: dict[str, Any], regions: dict[str, dict[str, Any]]) -> str | None:
    strings = {k: v for k, v in data.items() if isinstance(v, str)}
    for value in strings.values():
        if regions and all(
            r["end"] <= len(value) and value[r["start"] : r["end"]] == r.get("text", "")
            for r in regions.values()
            if "text" in r
        ):
            return value
    if len(strings) == 1:
        return next(iter(strings.values()))
    return strings.get("text")


def _lines(text: str, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    sentences: list[tuple[int, int]] = []
    start = 0
    for index in range(1, len(ranges) + 1):
        if index == len(ranges) or "\n" in text[ranges[index - 1][1] : ranges[index][0]]:
            sentences.append((start, index))
            start = index
    return sentences
