"""The core's migrations stand alone: none of them needs a migration of another app of ours,
directly, through another migration, or by another app's `run_before` (which Django turns
into a dependency of the core's migration). Otherwise a database could not hold the core
without the suggestions app, and the apps above the core would not really be above it."""

from __future__ import annotations

from django.db.migrations.loader import MigrationLoader

# The apps above the core (pyproject's layers contract).
ABOVE = {"accounts", "adjudication", "validation", "modelserve", "onboarding", "datasets"}


def needs(app: str, others: set[str]) -> dict[str, set[tuple[str, str]]]:
    """Each migration of `app` -> the migrations of the `others` apps it needs, transitively."""
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    return {
        name: {node for node in graph.forwards_plan((label, name)) if node[0] in others}
        for label, name in graph.nodes
        if label == app
    }


def test_no_migration_of_the_core_needs_one_of_an_app_above_it():
    found = needs("annotation", ABOVE)

    assert "0004_project_suggestion_fields_moved" in found  # the graph was read
    assert {name: above for name, above in found.items() if above} == {}


def test_the_check_sees_a_dependency_through_another_migration():
    # The suggestions app's 0002 names only its own 0001, which needs the core's 0001.
    found = needs("modelserve", {"annotation"})

    assert ("annotation", "0001_initial") in found["0002_run_heartbeat_membership"]
