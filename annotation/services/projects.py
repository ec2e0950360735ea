"""Projects, managed by admins: create, change (with the scheme checks), delete."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from annotation.errors import ProjectRefused
from annotation.models import Annotation, Project

PROJECT_FIELDS = (
    "name",
    "hierarchy",
    "anaphora",
    "guidelines",
    "allow_add_mentions",
    "allow_fix_spans",
    "allow_reject_mentions",
    "single_parent",
    "refuse_duplicate_link_pairs",
    "validation",
    "hierarchy_count",
)


def _check_scheme(values: dict) -> None:
    if values.get("validation"):
        # Validators accept or reject imported clusters: no other scheme applies to them.
        if values.get("hierarchy") or values.get("anaphora"):
            raise ProjectRefused("A validation project uses the validation scheme alone.")
        return
    if not values.get("hierarchy") and not values.get("anaphora"):
        raise ProjectRefused("A project needs at least one scheme: hierarchy, anaphora, or both.")


@transaction.atomic
def project_create(**values) -> Project:
    values = {k: v for k, v in values.items() if k in PROJECT_FIELDS}
    _check_scheme({"hierarchy": True, **values})
    if Project.objects.filter(name=values.get("name")).exists():
        raise ProjectRefused(f"A project named {values.get('name')!r} exists already.")
    return Project.objects.create(**values)


@transaction.atomic
def project_update(*, project: Project, **values) -> Project:
    values = {k: v for k, v in values.items() if k in PROJECT_FIELDS}
    merged = {f: getattr(project, f) for f in PROJECT_FIELDS} | values
    _check_scheme(merged)
    if (
        values.get("single_parent")
        and not project.single_parent
        and _has_multi_parent_clusters(project)
    ):
        raise ProjectRefused(
            "Some clusters already have several parents; single-parent cannot be switched on."
        )
    for field, value in values.items():
        setattr(project, field, value)
    try:
        project.save()
    except IntegrityError:
        raise ProjectRefused(f"A project named {project.name!r} exists already.") from None
    return project


def _has_multi_parent_clusters(project: Project) -> bool:
    from django.db.models import Count

    from annotation.models import HierarchyEdge

    return (
        HierarchyEdge.objects.filter(annotation__topic__project=project)
        .values("child_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .exists()
    )


@transaction.atomic
def project_delete(*, project: Project, confirm: bool = False) -> None:
    has_work = Annotation.objects.filter(topic__project=project, version__gt=0).exists()
    if has_work and not confirm:
        raise ProjectRefused(
            "This project holds annotations; deleting it deletes them: confirm to proceed."
        )
    project.delete()
