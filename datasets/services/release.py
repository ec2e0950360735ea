"""The release bundle: one folder with every split in the chosen formats (each topic's gold,
written by the export service), the statistics (JSON and CSV), the agreement report (CSV)
and DATASHEET.md.

    OUT/DATASHEET.md
    OUT/statistics.json     {"total": STATS, "splits": {name: STATS}}
    OUT/statistics.csv      one row per scope (total, then each split)
    OUT/agreement*.csv      the agreement report, one table per file (docs/agreement-csv.md)
    OUT/<format>/<split>.<ext>   (brat, corefi: OUT/<format>/<split>/)

A project without splits is released as one split named `all`. Nothing in the bundle holds
a clock reading, so a re-run over the same data writes the same bytes. A re-run into the
folder of an earlier bundle replaces that bundle's files; any other non-empty folder is
refused.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from annotation.errors import ExportRefused
from annotation.infra.file_names import path_inside, safe_file_name
from annotation.models import Project
from annotation.services.exports import Written, annotations_export
from corefscore.formats import FORMATS, WRITERS
from datasets import facts
from datasets.datasheet import datasheet
from datasets.errors import DatasetRefused
from datasets.format_fields import FORMAT_FIELDS
from datasets.selectors import project_statistics, statistics_csv
from reporting.selectors.agreement_files import agreement_tables

# The agreement report's tables, one per file (docs/agreement-csv.md).
AGREEMENT_FILES = {
    "agreement.csv": "the inter-annotator agreement report, per topic and overall",
    "agreement_vs_gold.csv": "each annotator against the gold",
    "agreement_validation.csv": "the validation measures",
    "agreement_left_out.csv": "what the agreement report leaves out, and why",
}

DATASHEET = "DATASHEET.md"
# (fraction done, what it does now): the release job's progress (services/release_jobs.py).
Progress = Callable[[float, str], None]
WHOLE = "all"  # the split name of a project released without splits


@dataclass
class ReleaseResult:
    out: Path
    files: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        lines = [f"wrote {self.out}/{name}" for name in self.files]
        # Warnings by kind: a 900-topic export may repeat one a few hundred times.
        kinds = Counter(_kind(warning) for warning in self.warnings)
        lines += [f"warning: {kind} ({_times(n)})" for kind, n in kinds.items()]
        return lines


def _default_formats(project: Project) -> list[str]:
    formats = []
    if project.hierarchy:
        formats.append("scico")
    if project.anaphora:
        formats.append("chemu")
    if project.hierarchy and project.anaphora:
        formats.append("brat")
    return [*formats, "conll"]


def dataset_release(
    *,
    project: Project,
    out: str | Path,
    formats: list[str] | None = None,
    with_names: bool = False,
    source: str | None = None,
    progress: Progress | None = None,
) -> ReleaseResult:
    """`source`: whose annotations the bundle holds, "gold" (imported) or "adjudicated";
    by default each topic's adjudication, else its imported gold. `progress` hears of each
    step, as fractions up to 0.9 (the rest is the zip's, release_storage.py)."""
    formats = release_formats(project, formats=formats)
    report_progress = progress or _silent
    out = Path(out)
    report_progress(0.0, "counting the statistics")
    statistics = project_statistics(project)
    splits: list[str | None] = list(statistics["splits"]) or [None]
    # Checked before the folder is touched: two splits written to one file would lose one.
    _refuse_colliding_names(splits)
    _prepare(out)
    result = ReleaseResult(out)
    files: list[tuple[str, str]] = []
    steps = len(formats) * len(splits) + 2  # every file, then the agreement, the datasheet
    done = 0
    for format in formats:
        spec = FORMATS[format]
        (out / format).mkdir(exist_ok=True)
        for split in splits:
            report_progress(0.9 * done / steps, f"writing {format} {split or WHOLE}")
            done += 1
            name = safe_file_name(split or WHOLE) + ("/" if spec.folder else spec.extension)
            target = path_inside(out / format, name.rstrip("/"))
            try:
                exported = annotations_export(
                    project=project, format=format, out=target, split=split, source=source
                )
            except ExportRefused as refused:
                result.warnings.append(f"{format} {split or WHOLE}: {refused.message}")
                continue
            # A validation project's export writes (path, topics, warnings) and a side file.
            for item in exported.written:
                path, topics, warnings = (
                    (item.path, item.topics, item.warnings) if isinstance(item, Written) else item
                )
                result.warnings += [f"{format} {split or WHOLE}: {w}" for w in warnings]
                shown = path.relative_to(out).as_posix() + ("/" if path.is_dir() else "")
                files.append((shown, _described(split, topics, warnings)))
    report_progress(0.9 * done / steps, "scoring the agreement")
    report = facts.agreement(project, with_names=with_names)
    _write(out / "statistics.json", json.dumps(statistics, indent=2) + "\n")
    _write(out / "statistics.csv", statistics_csv(statistics))
    tables = agreement_tables(report)
    for name, text in tables.items():
        _write(out / name, text)
    files += [
        ("statistics.json", "the statistics, in total and per split (docs/datasets.md)"),
        ("statistics.csv", "the same, one row per scope"),
        *((name, AGREEMENT_FILES[name]) for name in tables),
    ]
    report_progress(0.9 * (done + 1) / steps, "writing the datasheet")
    text = datasheet(
        project={
            "name": project.name,
            "hierarchy": project.hierarchy,
            "anaphora": project.anaphora,
            "validation": getattr(project, "validation", False),
            "guidelines": project.guidelines,
            "allow_add_mentions": project.allow_add_mentions,
            "allow_fix_spans": project.allow_fix_spans,
            "allow_reject_mentions": project.allow_reject_mentions,
            "single_parent": project.single_parent,
        },
        statistics=statistics,
        process=facts.annotation_process(project, with_names=with_names),
        agreement=report,
        versus_gold=report.get("vs_gold", {}),
        adjudication=facts.adjudication(project),
        validation=facts.validation(project),
        splits=facts.split_facts(project),
        retrieval=facts.retrieval(project),
        files=files,
        formats=formats,
    )
    _write(out / DATASHEET, text)
    result.files = [DATASHEET, *(path for path, _ in files)]
    return result


def release_formats(project: Project, *, formats: list[str] | None) -> list[str]:
    """The formats asked for (or the project's defaults), each once; refused before anything
    is built when one cannot go in a release: only the formats the datasheet can describe
    (datasets/format_fields.py)."""
    formats = list(dict.fromkeys(formats or _default_formats(project)))
    releasable = [name for name in WRITERS if name in FORMAT_FIELDS]
    unknown = [name for name in formats if name not in releasable]
    if unknown:
        raise DatasetRefused(
            "formats",
            f"format {unknown[0]!r} cannot go in a release; use one of {', '.join(releasable)}",
        )
    return formats


def _silent(fraction: float, message: str) -> None:
    return None


def _described(split: str | None, topics: int, warnings: list) -> str:
    """What a file holds, with what its format could not carry (the writer's warnings, each
    kind once, with how often it occurred)."""
    count = f"{topics} topic{'s' if topics != 1 else ''}"
    text = f"the {split} split, {count}" if split else f"all topics ({count})"
    kinds = Counter(getattr(warning, "message", str(warning)) for warning in warnings)
    if kinds:
        notes = "; ".join(f"{message} ({_times(n)})" for message, n in sorted(kinds.items()))
        text += f". Format notes: {notes}"
    return text


def _refuse_colliding_names(splits: list[str | None]) -> None:
    """Refused when two splits would share a file: compared as the bundle names them
    (`safe_file_name`) and case folded, as the export's own file naming compares them
    (`unique_file_names`): `Train.jsonl` and `train.jsonl` are one file on a case-insensitive
    file system (macOS, Windows), where unzipping the bundle would keep only one."""
    by_file: dict[str, str] = {}
    for split in splits:
        name = split or WHOLE
        file = safe_file_name(name)
        other = by_file.setdefault(file.casefold(), name)
        if other == name:
            continue
        if safe_file_name(other) == file:
            where = f"the same file ({file!r})"
        else:
            where = (
                f"files whose names differ only in case ({safe_file_name(other)!r}, {file!r}), "
                "one file where case is ignored (macOS, Windows)"
            )
        raise DatasetRefused(
            "split",
            f"the splits {other!r} and {name!r} would be written to {where}; rename one of them",
        )


def _prepare(out: Path) -> None:
    """An empty or new folder, or an earlier bundle's, whose files are removed."""
    if out.exists() and not out.is_dir():
        raise DatasetRefused("out", f"{out} is a file; a release is written into a folder")
    if out.is_dir() and any(out.iterdir()):
        if not (out / DATASHEET).is_file():
            raise DatasetRefused(
                "out", f"{out} is not empty and holds no earlier release ({DATASHEET})"
            )
        for name in FORMATS:
            if (out / name).is_dir():
                shutil.rmtree(out / name)
        for name in AGREEMENT_FILES:  # (a table the new bundle may not have)
            (out / name).unlink(missing_ok=True)
    out.mkdir(parents=True, exist_ok=True)


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="\n")


def _kind(warning: str) -> str:
    """`format split: file: topic, field ...: message` -> `format split: message`."""
    where, _, rest = warning.partition(": ")
    return f"{where}: {rest.rsplit(': ', 1)[-1]}"


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"
