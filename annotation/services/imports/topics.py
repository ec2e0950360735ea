"""Import topics (documents, candidate mentions and, when the file has one, the gold
annotation) from SciCo, CoRefi, ChEMU-Ref or brat files into a project.

Everything is checked before anything is written: the format reader validates the file and
lists every error with file, line and field (links against the workspace's ChEMU-Ref rules:
sources.LINK_FORMATS); then topic ids already in the project, and topics without a single
token, are errors of the same shape. Without `skip_invalid` any error refuses the whole
import (ImportRefused, nothing written); with it, the bad records are left out and listed.
An import that would create no topic is refused, and so is one of more than
IMPORT_MAX_TOPICS topics. The write is one
transaction of bulk inserts (COPY for documents and mentions), so the whole ChEMU-Ref
training file (900 topics) takes seconds.

A gold annotation is written as domain effects and logged as one `import` operation, like
any change an annotator makes: replaying its log reproduces it.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max

from annotation.errors import ImportRefused
from annotation.infra.bulk_sql import ids_reserve, rows_copy
from annotation.infra.effects_sql import effects_write
from annotation.models import Annotation, Document, Mention, Operation, Project, Topic
from annotation.selectors.state import mention_text
from annotation.services.imports.effects import cluster_ids_reserve, clusters_needed, import_plan
from annotation.services.imports.guessing import AUTO, format_guess, looks_like
from annotation.services.imports.link_scheme import links_in_scheme
from annotation.services.imports.locations import topic_errors
from annotation.services.imports.sources import (
    folder_size,
    is_zip_path,
    source_read,
    topics_check,
    unzip,
)
from annotation.services.seeds import SEED_KEY, seed_of
from annotation.validation_hooks import validation_unfit_drop
from corefscore.corpus import TopicData
from corefscore.formats import READERS, FormatErrors, FormatWarning, Skipped
from corefscore.formats._io import display_name
from corefscore.formats.chemu import FORMAT as CHEMU
from corefscore.formats.chemu import GOLD_KEYS
from corefscore.formats.corefi import is_seed
from corefscore.formats.corefi_parser import FORMAT as COREFI
from corefscore.formats.raw import LEVELS as RAW_LEVELS
from corefscore.formats.raw import raw_topics

# Where a topic's tokens are, per format: the field an error about a topic without any names.
TOKENS_FIELD = {
    "scico": "tokens",
    "corefi": "tokens",
    "chemu": "sentences",
    "brat": None,
    "corefud": None,
    "label-studio": None,
    "webanno-tsv": None,
    "webanno-tsv-folders": None,
    "uima-xmi": None,
    "uima-xmi-folders": None,
}


@dataclass
class ImportResult:
    """What an import did; `lines()` is what a command prints, one fact a line."""

    project: Project
    file: str
    topics: list[str] = field(default_factory=list)
    mentions: int = 0
    gold: int = 0
    seeded: int = 0  # topics whose file's clusters are a seed for the annotators, not gold
    warnings: list[FormatWarning | str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{self.file}: imported {len(self.topics)} topic(s) into project '{self.project.name}' "
            f"({self.mentions} mentions, {self.gold} with a gold annotation"
            + (f", {self.seeded} with a seed for the annotators" if self.seeded else "")
            + "); "
            f"{len(self.warnings)} warning(s), {len(self.skipped)} skipped"
        )

    def lines(self) -> list[str]:
        return [
            str(self),
            *(f"warning: {w}" for w in self.warnings),
            *(skipped_line(s) for s in self.skipped),
        ]


def skipped_line(skipped: Skipped) -> str:
    what = "the record" if skipped.scope == "record" else skipped.scope
    return f"skipped {what}: " + "; ".join(str(error) for error in skipped.errors)


def topics_import(
    *,
    project: Project,
    path: Any,
    format: str,
    skip_invalid: bool = False,
    raw: str | None = None,
    user=None,
    name: str | None = None,
    progress: Callable[[float, str], None] | None = None,
    written: Callable[[ImportResult], None] | None = None,
) -> ImportResult:
    """Import every topic of `path`: a file, a folder (searched at any depth), a zip, or an
    uploaded file; `name` is what messages call it (default: its base name). `progress`
    hears (fraction, what now) between the steps; `written(result)` runs in the transaction
    that writes the topics, so what it writes commits with them, and what it raises undoes
    them (an import job finishes itself there: services/imports/jobs.py). `raw` ("text" or
    "mentions", corefscore.formats.raw) leaves the file's annotation out: no gold, no seed."""
    report_progress = progress or (lambda fraction, message: None)
    if format not in READERS and format != AUTO:
        raise ImportRefused(f"unknown format {format!r}; use one of {', '.join(READERS)}", [])
    if raw is not None and raw not in RAW_LEVELS:
        raise ImportRefused(f"unknown raw import {raw!r}; use one of {', '.join(RAW_LEVELS)}", [])
    file = name or display_name(path)
    _check_size(path, file)
    if is_zip_path(path):
        with tempfile.TemporaryDirectory() as folder:
            return topics_import(
                project=project,
                path=unzip(path, target=Path(folder), name=file),
                format=format,
                skip_invalid=skip_invalid,
                raw=raw,
                user=user,
                name=file,
                progress=progress,
                written=written,
            )
    report_progress(0.1, "reading")
    source = _readable(path)
    guessed = None
    if format == AUTO:
        guessed = format_guess(source)
        format = guessed.format
    try:
        report = source_read(format, source=source, skip_invalid=skip_invalid, name=file)
    except FormatErrors as error:
        raise _refused(
            file, [str(e) for e in error.errors], looks_like(format, source=source)
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise ImportRefused(f"{file}: cannot be read ({error})", [f"{file}: {error}"]) from None
    topics_check(len(report.topics), name=file)
    report_progress(0.4, f"read {len(report.topics):,} topic(s); checking them")
    result = ImportResult(
        project=project, file=file, warnings=list(report.warnings), skipped=list(report.skipped)
    )
    if guessed is not None:
        result.warnings.insert(0, f"{file}: format guessed: {guessed}")
    read_topics = report.topics if raw is None else raw_topics(report.topics, raw)
    in_scheme, outside = links_in_scheme(read_topics, file=file)
    result.warnings += outside
    topics = _drop_unfit(project, in_scheme, format, source, skip_invalid, result)
    if project.validation:
        topics = validation_unfit_drop(topics, file, skip_invalid, result.skipped)
    if not topics:
        raise _nothing_to_import(result)
    result.warnings += _scheme_warnings(project, topics, file)
    report_progress(0.5, f"writing {len(topics):,} topic(s)")
    try:
        with transaction.atomic():
            topics_write(
                project=project,
                topics=topics,
                format=format,
                file=file,
                user=user,
                result=result,
                annotated=raw is None,
            )
            if written is not None:
                written(result)
    except IntegrityError as error:
        # Another import of the same ids committed between our check and our insert.
        if (
            getattr(getattr(error.__cause__, "diag", None), "constraint_name", None)
            != "topic_external_id_unique"
        ):
            raise
        raise ImportRefused(
            f"{file}: another import added some of these topics meanwhile; nothing was "
            "imported, try again",
            [],
        ) from None
    return result


def _refused(file: str, errors: list[str], hint: str = "") -> ImportRefused:
    return ImportRefused(f"{file}: {len(errors)} error(s); nothing was imported{hint}", errors)


def _nothing_to_import(result: ImportResult) -> ImportRefused:
    if result.skipped:
        return ImportRefused(
            f"{result.file}: every topic was skipped ({len(result.skipped)} skipped); "
            "nothing was imported",
            [skipped_line(skipped) for skipped in result.skipped],
        )
    message = f"{result.file} holds no topic; nothing was imported"
    return ImportRefused(message, [message])


def _check_size(path: Any, file: str) -> None:
    limit = settings.MAX_UPLOAD_BYTES
    if isinstance(path, (str, os.PathLike)):
        where = Path(path)
        if not where.exists():
            raise ImportRefused(
                f"{path}: no such file or folder", [f"{path}: no such file or folder"]
            )
        size = folder_size(where) if where.is_dir() else where.stat().st_size
    else:
        stream_size = getattr(path, "size", None)
        if stream_size is None:
            position = path.tell()
            stream_size = path.seek(0, io.SEEK_END)
            path.seek(position)
        size = stream_size
    if size > limit:
        message = (
            f"{file} is {size:,} bytes, above the {limit:,}-byte limit (MAX_UPLOAD_BYTES); "
            "nothing was imported"
        )
        raise ImportRefused(message, [message])


def _readable(path: Any) -> Any:
    """Paths go to the readers as they are; an uploaded (binary) file becomes a named text
    stream."""
    if isinstance(path, (str, os.PathLike)):
        return path
    data = path.read()
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as error:
            file = display_name(path)
            raise ImportRefused(
                f"{file} is not UTF-8 text", [f"{file}: byte {error.start}: not UTF-8"]
            ) from None
    stream = io.StringIO(data)
    stream.name = getattr(path, "name", None) or "<upload>"
    return stream


def _drop_unfit(
    project: Project,
    topics: list[TopicData],
    format: str,
    source: Any,
    skip_invalid: bool,
    result: ImportResult,
) -> list[TopicData]:
    """Topic ids already in the project or declared by two files of a folder, and topics
    without a single token (nothing to annotate), are errors."""
    conflicts = _conflict_problems(project, topics)
    empty = {
        topic.external_id: f"topic {topic.external_id} has no tokens: there is nothing to annotate"
        for topic in topics
        if topic.external_id not in conflicts
        and not any(document.tokens for document in topic.documents)
    }
    errors = topic_errors(format, path=source, problems=conflicts) if conflicts else []
    if empty:
        errors += topic_errors(format, path=source, problems=empty, field=TOKENS_FIELD[format])
    if not errors:
        return topics
    if not skip_invalid:
        raise _refused(result.file, [str(error) for error in errors])
    for error in errors:
        result.skipped.append(Skipped(error.file, error.record, (error,)))
    unfit = set(conflicts) | set(empty)
    return [topic for topic in topics if topic.external_id not in unfit]


def _conflict_problems(project: Project, topics: list[TopicData]) -> dict[str, str]:
    """Topic id -> why: already in the project, or declared by several files of a folder."""
    ids = [topic.external_id for topic in topics]
    existing = set(
        Topic.objects.filter(project=project, external_id__in=ids).values_list(
            "external_id", flat=True
        )
    )
    problems = {id: f"topic {id} is already in project '{project.name}'" for id in existing}
    problems.update(
        {
            id: f"topic {id} is declared by several files"
            for id, n in Counter(ids).items()
            if n > 1 and id not in problems
        }
    )
    return problems


def _scheme_warnings(project: Project, topics: list[TopicData], file: str) -> list[str]:
    warnings = []
    if not project.anaphora and any(topic.links for topic in topics):
        warnings.append(
            f"{file}: the file has anaphora links but project '{project.name}' does not use the "
            "anaphora scheme; they are imported and show once the scheme is switched on"
        )
    if (
        not project.hierarchy
        and not project.validation
        and any(topic.relations or topic.cluster_members() for topic in topics)
    ):
        warnings.append(
            f"{file}: the file has clusters but project '{project.name}' does not use the "
            "hierarchy scheme; they are imported and show once the scheme is switched on"
        )
    return warnings


@transaction.atomic
def topics_write(
    *,
    project: Project,
    topics: list[TopicData],
    format: str,
    file: str,
    user,
    result: ImportResult,
    annotated: bool = True,
) -> None:
    """Write checked topics (documents, candidate mentions, any gold as a logged `import`
    operation) into `project`, filling `result`: the import's writer, public for the apps
    that build topics themselves (validation: from suggestion runs, a validated project).
    Nothing is checked here; the caller has done what `topics_import` does before it.
    A CoRefi topic whose clusters are a seed (corefi.is_seed) gets no gold: its seed goes in
    the topic's metadata for the annotators' annotations (services/seeds.py). `annotated`
    False (a raw import: the topics were stripped) writes no gold at all."""
    seeds = {
        i: seed_of(t, mention_text=partial(_text, t))
        for i, t in enumerate(topics)
        # (a validation project validates the file's clusters, however many mentions they hold)
        if annotated and format == COREFI and not project.validation and is_seed(t)
    }
    last = Topic.objects.filter(project=project).aggregate(last=Max("position"))["last"]
    start = 0 if last is None else last + 1
    topic_rows = Topic.objects.bulk_create(
        [
            Topic(
                project=project,
                external_id=t.external_id,
                source=t.source,
                metadata=_without_held(t.metadata) | ({SEED_KEY: seeds[i]} if i in seeds else {}),
                position=start + i,
            )
            for i, t in enumerate(topics)
        ],
        batch_size=500,
    )
    # Documents and mentions go by COPY with ids drawn first (bulk_sql): the tokens of a big
    # file are megabytes of JSON, and the gold annotation's effects need the mention ids.
    document_ids = iter(ids_reserve(Document, sum(len(t.documents) for t in topics)))
    topic_documents = [[next(document_ids) for _ in t.documents] for t in topics]
    rows_copy(
        Document,
        ["id", "topic_id", "position", "doc_id", "tokens", "token_count", "sentences", "metadata"],
        (
            (
                id,
                row.pk,
                p,
                d.doc_id,
                d.tokens,
                len(d.tokens),
                [list(s) for s in d.sentences],
                d.metadata,
            )
            for row, ids, t in zip(topic_rows, topic_documents, topics, strict=True)
            for p, (id, d) in enumerate(zip(ids, t.documents, strict=True))
        ),
    )
    mention_ids = iter(ids_reserve(Mention, sum(len(t.mentions) for t in topics)))
    topic_mentions = [[next(mention_ids) for _ in t.mentions] for t in topics]
    rows_copy(
        Mention,
        ["id", "topic_id", "document_id", "spans", "position", "metadata"],
        (
            (id, row.pk, docs[m.document], [list(s) for s in m.spans], p, m.metadata)
            for row, docs, ids, t in zip(
                topic_rows, topic_documents, topic_mentions, topics, strict=True
            )
            for p, (id, m) in enumerate(zip(ids, t.mentions, strict=True))
        ),
    )
    result.topics = [t.external_id for t in topics]
    result.mentions = sum(len(ids) for ids in topic_mentions)
    # Every ChEMU-Ref line is an annotated snippet, also one without a relation (3 of the
    # training file's 900) or with only held entries (an empty side): its gold goes in, so an
    # export of the gold gives every line back.
    gold = [
        i
        for i, t in enumerate(topics)
        if annotated and i not in seeds and (t.has_annotation or format == CHEMU)
    ]
    annotations = Annotation.objects.bulk_create(
        [Annotation(topic=topic_rows[i], kind=Annotation.Kind.GOLD, version=1) for i in gold],
        batch_size=500,
    )
    cluster_ids = iter(cluster_ids_reserve(sum(clusters_needed(topics[i]) for i in gold)))
    operations = []
    for i, annotation in zip(gold, annotations, strict=True):
        topic = topics[i]
        plan = import_plan(
            topic,
            mention_ids=topic_mentions[i],
            cluster_ids=cluster_ids,
            mention_text=partial(_text, topic),
        )
        effects_write(annotation_id=annotation.pk, topic_id=topic_rows[i].pk, effects=plan.effects)
        operations.append(
            Operation(
                annotation=annotation,
                version=1,
                kind=Operation.Kind.DO,
                name="import",
                user=user,
                payload={
                    "op": "import",
                    "format": format,
                    "file": file,
                    "clusters": plan.clusters,
                    "labelled": plan.labelled,
                    **_held(topic),
                },
                effects=plan.effects,
                warnings=plan.warnings,
            )
        )
        result.warnings += [f"{file}: topic {topic.external_id}: {w}" for w in plan.warnings]
    Operation.objects.bulk_create(operations, batch_size=200)
    result.gold = len(annotations)
    result.seeded = len(seeds)
    for i in seeds:
        topic = topics[i]
        clustered = sum(1 for m in topic.mentions if m.cluster is not None)
        result.warnings.append(
            f"{file}: topic {topic.external_id}: the file gives a cluster id to {clustered} of "
            f"{len(topic.mentions)} mentions: imported as every annotator's starting point (a "
            "seed), not as gold"
        )


def _without_held(metadata: dict[str, Any]) -> dict[str, Any]:
    """The topic's metadata without what belongs to its gold (`GOLD_KEYS`): that goes in the
    gold's import operation (`_held`), so an annotator's export does not write the file's
    links back and no workspace shows an annotator the gold's links."""
    chemu = metadata.get(CHEMU)
    if not isinstance(chemu, dict) or not set(GOLD_KEYS) & set(chemu):
        return metadata
    rest = {k: v for k, v in chemu.items() if k not in GOLD_KEYS}
    others = {k: v for k, v in metadata.items() if k != CHEMU}
    return {**others, CHEMU: rest} if rest else others


def _held(topic: TopicData) -> dict[str, Any]:
    chemu = topic.metadata.get(CHEMU)
    if not isinstance(chemu, dict):
        return {}
    return {key: chemu[key] for key in GOLD_KEYS if chemu.get(key)}


def _text(topic: TopicData, index: int) -> str:
    mention = topic.mentions[index]
    return mention_text(topic.documents[mention.document].tokens, mention.spans)
