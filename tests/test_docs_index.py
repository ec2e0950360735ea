"""The docs a newcomer reads point at what is there: README.md's "Docs" index names every file
under docs/ and nothing else, and every repository path that README.md or a doc names (in
backticks, as a link, or written out as folders and a file) exists in the checkout."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from tests.paths import REPO

README = REPO / "README.md"
DOCS = REPO / "docs"
INDEX_LINE = re.compile(r"^- \[(?P<text>docs/[^\]]+)\]\((?P<target>docs/[^)]+)\): \S", re.MULTILINE)
CODE = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
# A path written without backticks: folders, then a file with an extension.
BARE = re.compile(
    r"(?<![\w/.`-])((?:[\w.-]+/)+[\w*.-]+\.(?:py|ts|vue|md|toml|json|jsonl|yaml|yml|sh|css|html))\b"
)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
# Created at run time, so absent from a fresh clone: local state (var/: the databases, keys,
# models, logs, wheels, backups), the virtual environment `make install` creates, what the
# builds write (the frontend's dist/ and the npm installs), and the browser tests' screenshots.
RUNTIME = ("var/", ".venv/", "frontend/dist/", "node_modules/", "test-artifacts/")
# Top-level files a doc may name without a folder.
ROOT_FILES = {p.name for p in REPO.iterdir() if p.is_file() and not p.name.startswith(".")}


def docs_files() -> set[str]:
    return {str(path.relative_to(REPO)) for path in DOCS.rglob("*") if path.is_file()}


def index_section() -> str:
    text = README.read_text()
    assert "\n## Docs\n" in text, "README.md has no Docs section"
    return text.split("\n## Docs\n", 1)[1].split("\n## ", 1)[0]


def expand_braces(path: str) -> list[str]:
    """`a/{b,c}.py` -> `a/b.py`, `a/c.py` (the docs' shorthand for several files)."""
    pieces = re.split(r"\{([^{}]*)\}", path)
    choices = [[p] if i % 2 == 0 else p.split(",") for i, p in enumerate(pieces)]
    return ["".join(combo) for combo in itertools.product(*choices)]


def repository_path(token: str) -> str | None:
    """The path a backtick span names inside the repository, or None when it names none (a
    command, an identifier, a path relative to a folder the text names, a file of another
    project)."""
    token = token.strip().rstrip(".,;:")
    token = re.sub(r"(::[\w.]+|:\d+(-\d+)?)$", "", token)
    if not token or re.search(r"[\s<>$=@()\"'|]|://", token) or token.startswith(("../", "/")):
        return None
    if "/" not in token:
        return token if token in ROOT_FILES else None
    root = token.split("/", 1)[0]
    if (REPO / root).exists() or any(token.startswith(prefix) for prefix in RUNTIME):
        return token
    return None


def missing(path: str) -> bool:
    if any(path.startswith(prefix) or f"/{prefix}" in path for prefix in RUNTIME):
        return False
    for one in expand_braces(path):
        found = list(REPO.glob(one.rstrip("/"))) if "*" in one else [REPO / one.rstrip("/")]
        if not any(p.exists() for p in found):
            return True
    return False


def named_paths(doc: Path) -> set[str]:
    text = FENCE.sub("", doc.read_text())
    names = {p for t in CODE.findall(text) + BARE.findall(text) if (p := repository_path(t))}
    for target in LINK.findall(text):
        target = target.split("#", 1)[0]
        if target and "://" not in target and not target.startswith("mailto:"):
            relative = (doc.parent / target).resolve()
            if relative.is_relative_to(REPO):
                names.add(str(relative.relative_to(REPO)))
    return names


# `path.py::name`: the docs' way of naming a definition inside a file.
DEFINITION = re.compile(r"`([\w./-]+\.(?:py|ts|vue))::([\w.]+)`")


def defines(path: Path, name: str) -> bool:
    """Whether the file defines `name` (a function, class, constant or exported binding)."""
    word = re.escape(name.split(".")[-1])
    pattern = rf"\b(def|class|function|const|let)\s+{word}\b|^\s*{word}\s*[:=]"
    return re.search(pattern, path.read_text(), re.MULTILINE) is not None


def test_the_index_names_every_docs_file_once_and_nothing_else():
    lines = INDEX_LINE.findall(index_section())
    assert all(text == target for text, target in lines), "an index line links elsewhere"
    named = [target for _, target in lines]
    assert len(named) == len(set(named)), "a docs file is named twice"
    assert sorted(docs_files() - set(named)) == [], "docs files missing from README's index"
    assert sorted(set(named) - docs_files()) == [], "the index names files that do not exist"


def test_the_path_reader_tells_paths_from_other_text():
    assert repository_path("annotation/models.py::Project") == "annotation/models.py"
    assert repository_path("tests/e2e/") == "tests/e2e/"
    assert repository_path("python -m bench faults") is None
    assert repository_path("eval/hypernym.py") is None  # SciCo's, not ours
    assert repository_path("../shared/docs/metrics.md") is None
    assert repository_path("/api/docs/") is None  # a URL path
    assert expand_braces("a/{b,c}.py") == ["a/b.py", "a/c.py"]
    assert missing("annotation/no_such_module.py")
    assert not missing("var/postgres")
    assert not missing("annotation/domain/{state,effects}.py")


def test_every_path_the_docs_name_exists():
    dangling = sorted(
        f"{doc.relative_to(REPO)}: {path}"
        for doc in [README, *sorted(DOCS.glob("*.md"))]
        for path in named_paths(doc)
        if missing(path)
    )
    assert dangling == [], "paths named in the docs that are not in the checkout:\n" + "\n".join(
        dangling
    )


def test_every_definition_the_docs_name_is_in_its_file():
    """A definition moved to another module leaves its file in place, so the path check
    alone would not see `old/module.py::Moved` go stale."""
    assert defines(REPO / "tests" / "test_docs_index.py", "defines")
    assert not defines(REPO / "tests" / "test_docs_index.py", "no_such_function")
    stale = sorted(
        f"{doc.relative_to(REPO)}: {path}::{name}"
        for doc in [README, *sorted(DOCS.glob("*.md"))]
        for path, name in DEFINITION.findall(FENCE.sub("", doc.read_text()))
        if (REPO / path).is_file() and not defines(REPO / path, name)
    )
    assert stale == [], "definitions the docs place in a file that lacks them:\n" + "\n".join(stale)
