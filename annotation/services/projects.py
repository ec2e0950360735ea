"""Projects and users, managed by admins."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from annotation.errors import ProjectRefused, UserRefused
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


def _check_username(username: str) -> None:
    """Django's own rule (letters, digits and @ . + - _): a username also names files in
    per-annotator exports."""
    try:
        get_user_model().username_validator(username)
    except ValidationError as error:
        raise UserRefused(" ".join(error.messages)) from None


def _check_password(password: str, user) -> None:
    """AUTH_PASSWORD_VALIDATORS: long enough, not common, not like the username."""
    try:
        validate_password(password, user)
    except ValidationError as error:
        raise UserRefused(" ".join(error.messages)) from None


def user_create(*, username: str, password: str, is_admin: bool = False):
    User = get_user_model()
    _check_username(username)
    if User.objects.filter(username=username).exists():
        raise UserRefused(f"The username {username!r} is taken.")
    _check_password(password, User(username=username))
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, password=password, is_staff=is_admin)
    except IntegrityError:
        # A second submit of the same form passed the check above before this one inserted.
        raise UserRefused(f"The username {username!r} is taken.") from None


@transaction.atomic
def user_update(
    *,
    user,
    acting_user,
    password: str | None = None,
    is_admin: bool | None = None,
    is_active: bool | None = None,
):
    """A new password signs the user out everywhere and revokes their API tokens
    (sessions.PasswordChangeRevokesTokens)."""
    if user.pk == acting_user.pk and (is_admin is False or is_active is False):
        raise UserRefused("You cannot remove your own admin rights or deactivate yourself.")
    if password is not None:
        _check_password(password, user)
        user.set_password(password)
    if is_admin is not None:
        user.is_staff = is_admin
    if is_active is not None:
        user.is_active = is_active
    user.save()
    return user
