"""The shared test helpers and fixtures are defined once, in their home module: a test module
that wrote its own `admin_client` or `project` again would drift from the others (one signed
in through the session, one through DRF; one project with gold, one without) unnoticed."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# Each shared name and the one module that defines it.
HOMES = {
    "tests/conftest.py": {"admin_client", "project", "fresh_state_cache"},
    "tests/factories.py": {
        "UserFactory",
        "AdminFactory",
        "ProjectFactory",
        "demo_project",
        "signed_in",
        "post_op",
        "put_suggestion_settings",
        "make_topic",
        "assign",
        "wait_until",
    },
    "tests/formats.py": {"scico_record", "scico_line", "errors_of"},
    "tests/workers.py": {"wait_for"},
}
# Names the copies went by before they were merged, kept out too.
FORMER_NAMES = {"client_of", "put_settings", "_cache", "_fresh_cache"}


def definitions(tree: ast.Module) -> list[tuple[str, int]]:
    """Every function and class the module defines, at any depth (a helper inside a test
    counts), with its line."""
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return [(node.name, node.lineno) for node in ast.walk(tree) if isinstance(node, kinds)]


def relative(path: Path) -> str:
    return path.relative_to(TESTS.parent).as_posix()


def test_no_module_defines_a_shared_helper_or_fixture_again():
    shared = set().union(*HOMES.values()) | FORMER_NAMES
    again = []
    for path in sorted(TESTS.rglob("*.py")):
        name = relative(path)
        own = HOMES.get(name, set())
        for defined, line in definitions(ast.parse(path.read_text(), filename=name)):
            if defined in shared and defined not in own:
                again.append(f"{name}:{line}: {defined}")
    assert again == [], "use the shared one (tests/test_helpers_once.py names its home):\n" + (
        "\n".join(again)
    )


def test_each_shared_name_is_defined_in_its_home():
    for home, names in HOMES.items():
        tree = ast.parse((TESTS.parent / home).read_text())
        defined = {name for name, _ in definitions(tree)}
        assert names <= defined, f"{home} no longer defines {sorted(names - defined)}"
