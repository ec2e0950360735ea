"""docs/architecture.md's map names every Python package of the repository at its place in
the tree, so a newcomer who reads it finds every folder of code (and a new one cannot be
added without saying what it holds)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.paths import REPO

MAP = REPO / "docs" / "architecture.md"
# Not ours to map (tests mirror the source; frontend/ is TypeScript), or not source at all
# (BUILT: what setuptools leaves beside a distribution it built, ignored by git).
BUILT = {"build"}
OUTSIDE = {"tests", "frontend", ".venv", "var", "node_modules", ".git"}
FOLDER = re.compile(r"^(?P<indent> *)(?P<name>[a-z_][\w/]*/)(?:,|\s|$)")


def python_packages(root: Path = REPO) -> set[str]:
    """Every folder holding Python code (with or without __init__.py), as `a/b/`; Django's
    migrations aside (every app with models has them, and the map says so once)."""
    found = set()
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).parts[:-1]
        if (
            not parts
            or parts[0] in OUTSIDE
            or parts[0].startswith(".")
            or "migrations" in parts
            or BUILT & set(parts)
        ):
            continue
        found.add("/".join(parts) + "/")
    return found


def mapped_folders(text: str) -> set[str]:
    """The folders the map's tree names: a line `name/` two spaces deeper than its parent's
    is inside it; `a/b/` names both; `api/, selectors/` names each."""
    block = text.split("## The map", 1)[1].split("```", 2)[1]
    named: set[str] = set()
    parents: list[tuple[int, str]] = []  # (indent, path) of the enclosing folders
    for line in block.splitlines():
        match = FOLDER.match(line)
        if not match:
            continue
        indent = len(match["indent"])
        while parents and parents[-1][0] >= indent:
            parents.pop()
        base = parents[-1][1] if parents else ""
        names = [match["name"]] + re.findall(r",\s*([a-z_][\w/]*/)", line[match.end() - 1 :])
        for name in names:
            steps = name.strip("/").split("/")
            for depth in range(1, len(steps) + 1):
                named.add(base + "/".join(steps[:depth]) + "/")
        parents.append((indent, base + match["name"]))
    return named


def test_the_map_names_every_python_package():
    missing = sorted(python_packages() - mapped_folders(MAP.read_text()))

    assert not missing, f"docs/architecture.md's map does not name {missing}"


def test_the_check_finds_a_package_the_map_leaves_out(tmp_path):
    (tmp_path / "annotation" / "newroom").mkdir(parents=True)
    (tmp_path / "annotation" / "newroom" / "__init__.py").write_text("")
    (tmp_path / "annotation" / "models.py").write_text("")

    assert python_packages(tmp_path) == {"annotation/", "annotation/newroom/"}
    assert mapped_folders("## The map\n```\nannotation/\n  domain/\n```\n") == {
        "annotation/",
        "annotation/domain/",
    }


def test_nesting_follows_the_indent_and_slashes_and_commas():
    text = "## The map\n```\napp/   x\n  |    y\n  a/b/  z\n  c/, d/\nother/\n  e/\n```\n"

    assert mapped_folders(text) == {
        "app/",
        "app/a/",
        "app/a/b/",
        "app/c/",
        "app/d/",
        "other/",
        "other/e/",
    }
