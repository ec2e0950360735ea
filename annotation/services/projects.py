"""Projects, managed by admins: create, change (with the scheme checks), delete."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from annotation.errors import ProjectRefused
from annotation.models import Annotation, Project, ValidationDecision, preset_reasons

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
    "suggestions",
    "validation_reasons",
    "attributes",
    "in_my_topics",
)
# The workspace picks an attribute with a key and its value with a digit 1-9.
MAX_ATTRIBUTES = 9
MAX_VALUES = 9


def _check_scheme(values: dict) -> None:
    if values.get("validation"):
        # Validators accept or reject imported clusters: no other scheme applies to them.
        if values.get("hierarchy") or values.get("anaphora"):
            raise ProjectRefused("A validation project uses the validation scheme alone.")
        return
    if not values.get("hierarchy") and not values.get("anaphora"):
        raise ProjectRefused("A project needs at least one scheme: hierarchy, anaphora, or both.")


def _check_reasons(project: Project | None, reasons: list[dict] | None) -> None:
    """Each reason its own key; a key that rejections already give stays (its label may
    change): removing it would leave those rejections without a reason the project knows."""
    if reasons is None:
        return
    if not reasons:
        raise ProjectRefused("A validation project needs at least one reason to reject for.")
    if len(reasons) > 3:
        raise ProjectRefused("At most three reasons: validators pick them with 1, 2 and 3.")
    keys = [reason["key"] for reason in reasons]
    for key in keys:
        if keys.count(key) > 1:
            raise ProjectRefused(f"Two reasons have the key {key!r}: each needs its own.")
    if project is None:
        return
    given = (
        ValidationDecision.objects.filter(annotation__topic__project=project, reason__gt="")
        .exclude(reason__in=keys)
        .values_list("reason", flat=True)
        .distinct()
    )
    in_use = sorted(given)
    if in_use:
        raise ProjectRefused(
            f"Rejections already give the reason {in_use[0]!r}: keep it (its label may change)."
        )


def _check_attributes(project: Project | None, attributes: list[dict] | None) -> None:
    """Each attribute its own name, each value its own; a name or value that links or
    clusters already carry stays: removing it would leave them with one the project does
    not know."""
    if attributes is None:
        return
    if len(attributes) > MAX_ATTRIBUTES:
        raise ProjectRefused(f"At most {MAX_ATTRIBUTES} attributes.")
    names = [attribute["name"] for attribute in attributes]
    for attribute in attributes:
        name, values = attribute["name"], attribute["values"]
        if names.count(name) > 1:
            raise ProjectRefused(f"Two attributes are named {name!r}: each needs its own name.")
        if not values or len(values) > MAX_VALUES:
            raise ProjectRefused(f"The attribute {name!r} needs 1 to {MAX_VALUES} values.")
        for value in values:
            if values.count(value) > 1:
                raise ProjectRefused(f"The attribute {name!r} lists the value {value!r} twice.")
    if project is None:
        return
    allowed = {
        (attribute["name"], value) for attribute in attributes for value in attribute["values"]
    }
    for name, value in sorted(_attribute_values_in_use(project) - allowed):
        raise ProjectRefused(
            f"Links or clusters already have {name} {value!r}: keep that value (clear it "
            "where it is set first to remove it)."
        )


def _attribute_values_in_use(project: Project) -> set[tuple[str, str]]:
    from django.db import connection

    from annotation.models import Cluster, RelationLink, Topic

    used: set[tuple[str, str]] = set()
    with connection.cursor() as cursor:
        for table in (RelationLink._meta.db_table, Cluster._meta.db_table):
            cursor.execute(
                f"SELECT DISTINCT kv.key, kv.value FROM {table} x "
                f"JOIN {Annotation._meta.db_table} a ON a.id = x.annotation_id "
                f"JOIN {Topic._meta.db_table} t ON t.id = a.topic_id, "
                "jsonb_each_text(x.attributes) kv WHERE t.project_id = %s",
                [project.pk],
            )
            used.update(cursor.fetchall())
    return used


def _fields(values: dict) -> dict:
    """The model's fields of `values`; `validation_reasons_for` ("concepts", "events") names
    the reasons for what the clusters are, when no reasons of their own are given."""
    kind = values.get("validation_reasons_for")
    fields = {k: v for k, v in values.items() if k in PROJECT_FIELDS}
    if kind and "validation_reasons" not in fields:
        fields["validation_reasons"] = preset_reasons(kind)
    return fields


@transaction.atomic
def project_create(**values) -> Project:
    values = _fields(values)
    _check_scheme({"hierarchy": True, **values})
    _check_reasons(None, values.get("validation_reasons"))
    _check_attributes(None, values.get("attributes"))
    if Project.objects.filter(name=values.get("name")).exists():
        raise ProjectRefused(f"A project named {values.get('name')!r} exists already.")
    return Project.objects.create(**values)


@transaction.atomic
def project_update(*, project: Project, **values) -> Project:
    """Change a project's settings. The row is locked first: every operation takes the same
    row FOR SHARE while it plans and writes (services/operations.py), so the checks below see
    every operation committed before the change, and none commits under the old flags after
    it. That covers each setting an operation depends on: single-parent's check of existing
    clusters and the reasons' check of existing rejections most of all, and the plain flags
    (adding mentions, fixing spans, links, validation) likewise take effect between two
    operations, never in the middle of one."""
    values = _fields(values)
    list(Project.objects.select_for_update().filter(pk=project.pk).values_list("pk"))
    project.refresh_from_db()  # the flags as of the lock, not as the caller read them
    merged = {f: getattr(project, f) for f in PROJECT_FIELDS} | values
    _check_scheme(merged)
    _check_reasons(project, values.get("validation_reasons"))
    _check_attributes(project, values.get("attributes"))
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
    if "hierarchy_count" in values:
        # the admin has chosen the primary count with the new labels: the agreement page's
        # notice that migration 0014 moved it has been read (selectors/agreement_notices.py)
        project.hierarchy_count_migrated = False
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
