"""Services take keyword arguments (docs/architecture.md, "Reads and writes"): a public
function of any app's services/ takes at most one positional argument, the thing it acts on,
so that a call site says what each value is and a reordered signature cannot swap two ids
silently."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.paths import REPO

APPS = ("annotation", "accounts", "adjudication", "validation", "modelserve", "onboarding")
APPS += ("datasets",)

# A signature fixed by someone else: a hook the core calls positionally
# (annotation/validation_hooks.py `import_fit`).
FIXED = {
    "validation/services/import_checks.py::validation_unfit_drop",
}


def positional_heavy(root: Path = REPO) -> set[str]:
    """`path::name` of every public top-level function in a services/ package that takes
    more than one positional argument."""
    found = set()
    for app in APPS:
        for path in sorted((root / app / "services").rglob("*.py")):
            for node in ast.parse(path.read_text()).body:
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                positional = len(node.args.posonlyargs) + len(node.args.args)
                if not node.name.startswith("_") and positional > 1:
                    found.add(f"{path.relative_to(root)}::{node.name}")
    return found


def test_service_functions_take_keyword_arguments_after_the_first():
    assert positional_heavy() - FIXED == set()


def test_the_exceptions_are_still_there():
    # An exception that no longer exists (renamed, made keyword-only) leaves the list.
    assert positional_heavy() >= FIXED


def test_the_check_sees_a_positional_service(tmp_path):
    services = tmp_path / "annotation" / "services"
    services.mkdir(parents=True)
    (services / "x.py").write_text(
        "def ok(project, *, user): ...\ndef bad(project, user): ...\ndef _private(a, b): ...\n"
    )
    assert positional_heavy(tmp_path) == {"annotation/services/x.py::bad"}
