"""What format a file looks like, from its first bytes and its name (pure; no reading of the
whole file). The import uses it when asked to guess (``--format auto``) and, when a file
does not parse as the format chosen, to name the format it looks like.

Signs, strongest first: a WebAnno TSV ``#FORMAT=`` line; an ``<xmi:XMI`` root; CoNLL-U
rows (ten tab-separated columns) with ``Entity=`` in MISC or CorefUD's ``# global.Entity``;
a JSON record's keys (SciCo: ``flatten_tokens``, or ``id`` + ``tokens`` + ``mentions``;
ChEMU-Ref: ``doc_key`` + ``sentences``; CoRefi: ``tokens`` + ``mentions`` without ``id``, or
its ``fixableSpans`` / ``newMentions`` / ``reassignable`` flags;
Label Studio: tasks with ``annotations`` / ``data``); brat ``.ann`` lines (``T1<TAB>Type 0
5<TAB>text``). For a folder or a zip, the files' extensions (``.ann`` -> brat, ``.tsv``,
``.xmi``, ``.conllu``) and then its first file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePath

HEAD_BYTES = 65536
_BRAT_LINE = re.compile(r"^T\d+\t\S+ \d+ \d+")
_KEY = re.compile(r'"(\w+)"\s*:')


@dataclass(frozen=True)
class Guess:
    format: str
    reason: str

    def __str__(self) -> str:
        return f"{self.format} ({self.reason})"


def guess_format(data: bytes, name: str = "") -> Guess | None:
    """The format ``data`` (a file's first bytes) looks like, or None."""
    text = data[:HEAD_BYTES].decode("utf-8", errors="replace").lstrip("\ufeff")
    first = text.split("\n", 1)[0].strip()
    suffix = PurePath(name).suffix.lower()
    if first.startswith("#FORMAT=WebAnno TSV 3"):
        return Guess("webanno-tsv", "its first line is #FORMAT=WebAnno TSV 3")
    if "<xmi:XMI" in text[:4000]:
        return Guess("uima-xmi", "its root element is xmi:XMI")
    if "# global.Entity" in text or _conllu_entities(text):
        return Guess("corefud", "CoNLL-U rows with Entity= in the MISC column")
    record = _json_record(text, first)
    tasks = record[:5] if isinstance(record, list) else []
    if all(isinstance(r, dict) for r in tasks) and any(
        "annotations" in r or "data" in r for r in tasks
    ):
        return Guess("label-studio", "a JSON list of tasks with annotations")
    if isinstance(record, dict):
        keys = set(record)
        if "annotations" in keys and "data" in keys:
            return Guess("label-studio", "a JSON task with annotations")
        if "flatten_tokens" in keys or {"id", "tokens", "mentions"} <= keys:
            return Guess("scico", "a JSON line with id, tokens and mentions")
        if {"doc_key", "sentences"} <= keys:
            return Guess("chemu", "a JSON line with doc_key and sentences")
        if {"tokens", "mentions"} <= keys or keys & {"fixableSpans", "newMentions", "reassignable"}:
            return Guess("corefi", "a JSON object with tokens and mentions (CoRefi's fields)")
    if suffix == ".ann" or any(_BRAT_LINE.match(line) for line in text.splitlines()[:20]):
        return Guess("brat", "brat standoff lines (T1<TAB>Type start end)")
    return None


def guess_files(names: Iterable[str], first: tuple[bytes, str] | None = None) -> Guess | None:
    """What a folder (or a zip) of files named ``names`` looks like; ``first`` is a file of
    it to look into when the names do not tell."""
    suffixes = {PurePath(n).suffix.lower() for n in names}
    if ".ann" in suffixes:
        return Guess("brat", "it holds .ann files")
    for suffix, format in ((".tsv", "webanno-tsv"), (".xmi", "uima-xmi"), (".conllu", "corefud")):
        if suffix in suffixes:
            return Guess(format, f"it holds {suffix} files")
    return guess_format(*first) if first is not None else None


def _conllu_entities(text: str) -> bool:
    for line in text.splitlines()[:400]:
        cells = line.split("\t")
        if len(cells) == 10 and "Entity=" in cells[9]:
            return True
    return False


def _json_record(text: str, first: str) -> object:
    for candidate in (first, text):
        try:
            return json.loads(candidate)
        except (ValueError, RecursionError):  # too deep to parse: the reader says so
            continue
    if text.lstrip().startswith("{"):
        # A record longer than the head: its keys, as far as they can be seen.
        return dict.fromkeys(_KEY.findall(text[:HEAD_BYTES]))
    return None
