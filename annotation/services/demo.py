"""The demo data `make up` loads on first start: accounts and two projects from fixtures/."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

DEMO_ANNOTATORS = ("annotator1", "annotator2")


@transaction.atomic
def demo_users_ensure(*, password: str) -> list[str]:
    User = get_user_model()
    created = []
    admin, new = User.objects.get_or_create(username="admin", defaults={"is_staff": True, "is_superuser": True})
    if new:
        admin.set_password(password)
        admin.save()
        created.append("admin")
    for name in DEMO_ANNOTATORS:
        user, new = User.objects.get_or_create(username=name)
        if new:
            user.set_password(password)
            user.save()
            created.append(name)
    return created


def demo_load(*, password: str, force: bool = False) -> list[str]:
    created = demo_users_ensure(password=password)
    report = [f"demo accounts created: {', '.join(created)}"] if created else []
    return report
