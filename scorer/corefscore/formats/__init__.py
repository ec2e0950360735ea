"""Format readers and writers: SciCo jsonl, CoRefi JSON, ChEMU-Ref jsonlines, brat standoff,
CoNLL-2012 (export), WebAnno TSV 3 and UIMA CAS XMI (INCEpTION), CorefUD,
Label Studio (import). Every reader returns an
:class:`ImportReport` of ``TopicData``; every writer takes ``TopicData``. Pure Python: no
Django. See docs/formats.md.

``FORMATS`` is the one list of formats: their names, what can be read and written, the file
extension of a one-file output, and which are written as a folder of files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from corefscore.formats._io import PathOrStream, display_name
from corefscore.formats.brat import read_brat, write_brat
from corefscore.formats.chemu import read_chemu_jsonlines, write_chemu_jsonlines
from corefscore.formats.conll import write_conll
from corefscore.formats.corefi import (
    read_corefi,
    read_corefi_json,
    write_corefi,
    write_corefi_json,
)
from corefscore.formats.corefud import read_corefud, write_corefud
from corefscore.formats.errors import (
    FormatError,
    FormatErrors,
    FormatWarning,
    ImportReport,
    Skipped,
)
from corefscore.formats.label_studio import read_label_studio
from corefscore.formats.scico import read_scico_jsonl, write_scico_jsonl
from corefscore.formats.storable import storable_only, unreadable_json
from corefscore.formats.uima_xmi import (
    read_uima_xmi,
    read_uima_xmi_folders,
    write_uima_xmi,
)
from corefscore.formats.webanno_tsv import read_webanno_tsv, read_webanno_tsv_folders
from corefscore.formats.webanno_tsv_write import write_webanno_tsv

Reader = Callable[..., ImportReport]
Writer = Callable[..., list[FormatWarning]]


@dataclass(frozen=True)
class Format:
    name: str
    label: str
    reader: Reader | None
    writer: Writer | None
    # A one-file output's extension; folder formats write one or two files per topic.
    extension: str
    folder: bool = False
    # What an upload of this format may be named (a zip holds a folder or several files).
    accepts: tuple[str, ...] = ()
    # What annotators write beside the annotation that the format can hold (WRITTEN_EXTRAS);
    # `write` reports the rest as left out.
    holds: frozenset[str] = frozenset()


# What annotators write beside clusters and links, in the words an export's warning uses.
WRITTEN_EXTRAS = ("link notes", "link attributes", "cluster notes", "cluster attributes")


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format(
            "scico",
            "SciCo jsonl",
            read_scico_jsonl,
            write_scico_jsonl,
            ".jsonl",
            accepts=(".jsonl", ".json", ".zip"),
            # a `cluster_notes` key beside the clusters' mentions (SciCo has no links)
            holds=frozenset({"cluster notes", "cluster attributes"}),
        ),
        Format(
            "corefi",
            "CoRefi JSON",
            read_corefi,
            write_corefi,
            ".json",
            folder=True,
            accepts=(".json", ".zip"),
        ),
        Format(
            "chemu",
            "ChEMU-Ref jsonlines",
            read_chemu_jsonlines,
            write_chemu_jsonlines,
            ".jsonlines",
            accepts=(".jsonlines", ".jsonl", ".zip"),
            # a `relation_notes` key beside the relation lists
            holds=frozenset({"link notes", "link attributes"}),
        ),
        Format(
            "brat",
            "brat standoff",
            read_brat,
            write_brat,
            "",
            folder=True,
            accepts=(".zip",),
            # `#` AnnotatorNotes and `A` attribute lines on relations; equivalences have no id
            holds=frozenset({"link notes", "link attributes"}),
        ),
        Format("conll", "CoNLL-2012", None, write_conll, ".conll"),
        Format(
            "corefud",
            "CorefUD CoNLL-U",
            read_corefud,
            write_corefud,
            ".conllu",
            accepts=(".conllu", ".zip"),
        ),
        Format(
            "label-studio",
            "Label Studio JSON export (import only)",
            read_label_studio,
            None,
            ".json",
            accepts=(".json", ".zip"),
        ),
        # INCEpTION: each .tsv file a topic, or (-folders) each folder of .tsv files one topic.
        Format(
            "webanno-tsv",
            "WebAnno TSV 3 (INCEpTION), a topic per file",
            read_webanno_tsv,
            write_webanno_tsv,
            "",
            folder=True,
            accepts=(".tsv", ".zip"),
        ),
        Format(
            "webanno-tsv-folders",
            "WebAnno TSV 3 (INCEpTION), a topic per folder",
            read_webanno_tsv_folders,
            write_webanno_tsv,
            "",
            folder=True,
            accepts=(".zip",),
        ),
        Format(
            "uima-xmi",
            "UIMA CAS XMI (INCEpTION), a topic per file",
            read_uima_xmi,
            write_uima_xmi,
            "",
            folder=True,
            accepts=(".xmi", ".zip"),
        ),
        Format(
            "uima-xmi-folders",
            "UIMA CAS XMI (INCEpTION), a topic per folder",
            read_uima_xmi_folders,
            write_uima_xmi,
            "",
            folder=True,
            accepts=(".zip",),
        ),
    )
}
READERS: dict[str, Reader] = {n: f.reader for n, f in FORMATS.items() if f.reader is not None}
WRITERS: dict[str, Writer] = {n: f.writer for n, f in FORMATS.items() if f.writer is not None}


def read(
    format: str, path: PathOrStream, skip_invalid: bool = False, **options: Any
) -> ImportReport:
    """Read ``path`` in ``format`` (a key of READERS); ``options`` go to the reader (the
    readers of formats with links take ``link_rules``)."""
    try:
        reader = READERS[format]
    except KeyError:
        raise ValueError(f"unknown format {format!r}; readers: {', '.join(READERS)}") from None
    try:
        report = reader(path, skip_invalid=skip_invalid, **options)
    except FormatErrors:
        raise
    except (RecursionError, ValueError) as error:
        unreadable = unreadable_json(error, display_name(path))
        if unreadable is None:
            raise
        raise FormatErrors([unreadable]) from None
    return storable_only(report, display_name(path), skip_invalid=skip_invalid)


def write(
    format: str, topics: Iterable[Any], path: PathOrStream, **options: Any
) -> list[FormatWarning]:
    """Write ``topics`` (TopicData) to ``path`` in ``format`` (a key of WRITERS)."""
    try:
        writer = WRITERS[format]
    except KeyError:
        raise ValueError(f"unknown format {format!r}; writers: {', '.join(WRITERS)}") from None
    topics = list(topics)
    return writer(topics, path, **options) + left_out_extras(format, topics)


def left_out_extras(format: str, topics: list[Any]) -> list[FormatWarning]:
    """One warning per kind of what annotators wrote (notes, attributes) that ``format``
    cannot hold, with how many were left out: an export never drops them silently."""
    holds = FORMATS[format].holds
    counts = dict.fromkeys(WRITTEN_EXTRAS, 0)
    for topic in topics:
        counts["link notes"] += sum(1 for link in topic.links if link.note)
        counts["link attributes"] += sum(len(link.attributes) for link in topic.links)
        counts["cluster notes"] += sum(1 for cluster in topic.clusters if cluster.note)
        counts["cluster attributes"] += sum(len(cluster.attributes) for cluster in topic.clusters)
    return [
        FormatWarning(
            format,
            None,
            what,
            f"{FORMATS[format].label} cannot hold {what}: {n} left out "
            "(a project archive keeps them)",
        )
        for what, n in counts.items()
        if n and what not in holds
    ]


__all__ = [
    "FORMATS",
    "READERS",
    "WRITERS",
    "Format",
    "FormatError",
    "FormatErrors",
    "FormatWarning",
    "ImportReport",
    "Skipped",
    "read",
    "read_brat",
    "read_chemu_jsonlines",
    "read_corefi",
    "read_corefi_json",
    "read_corefud",
    "read_label_studio",
    "read_scico_jsonl",
    "read_uima_xmi",
    "read_uima_xmi_folders",
    "read_webanno_tsv",
    "read_webanno_tsv_folders",
    "write",
    "write_brat",
    "write_chemu_jsonlines",
    "write_conll",
    "write_corefi",
    "write_corefi_json",
    "write_corefud",
    "write_scico_jsonl",
    "write_uima_xmi",
    "write_webanno_tsv",
]
