"""What the agreement page tells a project's admins beside the figures (both report paths)."""

from __future__ import annotations

from annotation.models import Project

HIERARCHY_COUNT_MOVED = (
    "This project's primary hierarchy F1 was the raw edges count, which earlier versions "
    "labelled SciCo's. SciCo's released scorer (eval/hypernym.py, the code of the paper) "
    "counts every relation of the transitive closure, so the primary figure is now Hierarchy "
    'F1 (SciCo, closure); the raw edges count is still shown beside it, labelled "raw edges '
    "(not SciCo's)\". Figures taken from the raw count and reported as SciCo's should be "
    "replaced. Saving the primary hierarchy F1 in the project's settings dismisses this notice."
)


def report_notices(project: Project) -> list[str]:
    """The notices of the project's agreement report, in the order the page shows them."""
    return [HIERARCHY_COUNT_MOVED] if project.hierarchy_count_migrated else []
