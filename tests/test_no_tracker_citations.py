"""Code and docs give the reason itself, not a number in a tracker the repository does not
hold: a comment that points at an issue, item, turn, session, wave or round by its number
tells a newcomer nothing. The reason goes in words, or a link to the docs section that holds
it (docs/x.md, "Section")."""

from __future__ import annotations

import os
import re
from pathlib import Path

from tests.paths import REPO

# The word, then its number ("#" allowed before it), case folded. A count ("3 items") does not
# match: the word comes first. This module is the one file that spells citations out, to test
# the pattern, so the scan leaves it out.
CITATION = re.compile(r"\b(?:issues?|items?|turns?|sessions?|waves?|rounds?)\s+#?\d", re.IGNORECASE)
SUFFIXES = {".py", ".ts", ".vue", ".js", ".md", ".toml", ".yaml", ".yml", ".sh", ".cfg", ".ini"}
NAMES = {"Makefile", "Dockerfile"}
# Not ours (installed or built), or local state.
SKIPPED = {".git", ".venv", "node_modules", "dist", "var", "build", "test-artifacts"}


def scanned_files(root: Path = REPO) -> list[Path]:
    """Every file of ours to read, walking the tree once and never into an installed or
    built folder (a fresh clone's frontend/node_modules holds far more files than the code)."""
    found = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [
            name
            for name in subfolders
            if name not in SKIPPED and (not name.startswith(".") or name == ".ci")
        ]
        for name in files:
            path = Path(folder, name)
            if path == Path(__file__).resolve():
                continue
            if path.suffix in SUFFIXES or name in NAMES:
                found.append(path)
    return found


def citations(text: str) -> list[tuple[int, str]]:
    if not CITATION.search(text):  # most files: one pass over the text, no line split
        return []
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if CITATION.search(line)
    ]


def test_the_scan_reads_code_tests_and_docs():
    names = {str(path.relative_to(REPO)) for path in scanned_files()}
    assert {"Makefile", "pyproject.toml", "README.md", "docs/decisions.md"} <= names
    assert "annotation/domain/operations/labels.py" in names
    assert any(name.startswith("frontend/src/") and name.endswith(".vue") for name in names)


def test_the_pattern_finds_each_form_of_citation():
    cited = "x (issue 26.9)\n# Issue 24, item 5\n// see Session 4\nno count: 3 items\nwave 2"
    assert [number for number, _ in citations(cited)] == [1, 2, 3, 5]


def test_no_file_cites_an_issue_item_turn_session_or_wave_by_number():
    found = [
        f"{path.relative_to(REPO)}:{number}: {line}"
        for path in scanned_files()
        for number, line in citations(path.read_text(errors="replace"))
    ]
    assert found == [], "say the reason, or link docs/x.md, section:\n" + "\n".join(found)
