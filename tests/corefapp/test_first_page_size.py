"""The first page stays small: what the browser must fetch before the app draws (the entry
chunk, the chunks it imports statically, and their CSS), gzipped, is under the budget
frontend/README.md states. The guidelines renderer (markdown-it) and the validation page
load when first used; a static import of either puts it back on the first page.

Reads the Vite manifest of frontend/dist (`cd frontend && npm run build`, as for the
browser tests)."""

import gzip
import json

from corefapp.spa import ENTRY
from tests.paths import REPO

DIST = REPO / "frontend" / "dist"
MANIFEST = DIST / ".vite" / "manifest.json"
# frontend/README.md, "Small first page": change both together.
BUDGET_KB = 130


def manifest() -> dict:
    assert MANIFEST.exists(), (
        f"{MANIFEST} is missing: build the frontend (cd frontend && npm run build)"
    )
    return json.loads(MANIFEST.read_text())


def first_page(chunks: dict) -> list[str]:
    """The manifest keys the entry needs before it runs: itself and its static imports."""
    found: list[str] = []
    todo = [ENTRY]
    while todo:
        key = todo.pop()
        if key not in found:
            found.append(key)
            todo.extend(chunks[key].get("imports", []))
    return found


def gzipped_kb(files: set[str]) -> float:
    return sum(len(gzip.compress((DIST / name).read_bytes(), 9)) for name in files) / 1000


def test_the_first_page_is_under_the_budget_the_readme_states():
    chunks = manifest()
    files = {
        name
        for key in first_page(chunks)
        for name in [chunks[key]["file"], *chunks[key].get("css", [])]
    }

    size = gzipped_kb(files)

    assert size <= BUDGET_KB, f"the first page is {size:.1f} kB gzipped: {sorted(files)}"
    readme = (REPO / "frontend" / "README.md").read_text()
    assert f"{BUDGET_KB} kB" in readme, "frontend/README.md states another budget"


def test_the_guidelines_renderer_and_the_validation_page_are_not_on_the_first_page():
    chunks = manifest()
    eager = first_page(chunks)
    text = "\n".join((DIST / chunks[key]["file"]).read_text() for key in eager)

    assert "src/validation/ValidationPage.vue" not in eager
    assert chunks["src/validation/ValidationPage.vue"].get("isDynamicEntry")
    # markdown-it's rule names survive minification; its chunk has no name of its own.
    assert "blockquote_open" not in text
