"""The demo data `make up` loads on first start: accounts and three projects from fixtures/demo.

- "SciCo demo": the six SciCo topics with their gold, assigned to both demo annotators;
- "ChEMU-Ref demo": the eight reaction snippets with gold links, assigned to both, mentions
  editable (add, fix, reject);
- "SciCo agreement demo": the same SciCo topics, with annotator A's and annotator B's files
  loaded as annotator1's and annotator2's submitted annotations, so the agreement report has
  data at once.

Projects are created only into a database without projects (or with `force`), and only
those missing by name, so a second start adds nothing.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from annotation.domain.formats import read
from annotation.models import Project
from annotation.services.annotation_import import annotation_import_for_assignment
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.imports import topics_import

DEMO_ANNOTATORS = ("annotator1", "annotator2")
DEMO_DIR = Path(settings.BASE_DIR) / "fixtures" / "demo"
SCICO_GUIDELINES = (
    "Put every mention of the same scientific concept in one cluster (a singleton is a cluster), then "
    "attach each cluster under the more general concept it is a kind of (one parent per cluster)."
)
CHEMU_GUIDELINES = (
    "Link each anaphor to its antecedent (earlier in the text): COREFERENCE, TRANSFORMED (one-to-one), "
    "REACTION_ASSOCIATED, WORK_UP, CONTAINED (ChEMU 2021, section 3.3). Add, fix or reject mentions as needed."
)


@transaction.atomic
def demo_users_ensure(*, password: str) -> list[str]:
    User = get_user_model()
    created = []
    admin, new = User.objects.get_or_create(
        username="admin", defaults={"is_staff": True, "is_superuser": True}
    )
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
    """Accounts (always ensured) and the demo projects; one report line per project."""
    created = demo_users_ensure(password=password)
    report = [f"demo accounts created: {', '.join(created)}"] if created else []
    if Project.objects.exists() and not force:
        return report
    annotators = [get_user_model().objects.get(username=name) for name in DEMO_ANNOTATORS]
    for name, loader in (
        ("SciCo demo", _scico),
        ("ChEMU-Ref demo", _chemu),
        ("SciCo agreement demo", _agreement),
    ):
        if Project.objects.filter(name=name).exists():
            report.append(f"{name}: already there")
        else:
            report.append(f"{name}: {loader(name, annotators)}")
    return report


def _assign_all(project: Project, annotators) -> dict:
    return {
        (topic.pk, user.pk): assignment_create(topic=topic, user=user)
        for topic in project.topics.order_by("position")
        for user in annotators
    }


@transaction.atomic
def _scico(name: str, annotators) -> str:
    project = Project.objects.create(
        name=name, hierarchy=True, anaphora=False, single_parent=True, guidelines=SCICO_GUIDELINES
    )
    result = topics_import(project=project, path=DEMO_DIR / "scico_demo.jsonl", format="scico")
    _assign_all(project, annotators)
    return f"{len(result.topics)} topics with gold, assigned to {', '.join(u.username for u in annotators)}"


@transaction.atomic
def _chemu(name: str, annotators) -> str:
    project = Project.objects.create(
        name=name,
        hierarchy=False,
        anaphora=True,
        allow_add_mentions=True,
        allow_fix_spans=True,
        allow_reject_mentions=True,
        guidelines=CHEMU_GUIDELINES,
    )
    result = topics_import(project=project, path=DEMO_DIR / "chemu_demo.jsonlines", format="chemu")
    _assign_all(project, annotators)
    return f"{len(result.topics)} snippets with gold links, assigned to {', '.join(u.username for u in annotators)}"


@transaction.atomic
def _agreement(name: str, annotators) -> str:
    project = Project.objects.create(
        name=name, hierarchy=True, anaphora=False, single_parent=True, guidelines=SCICO_GUIDELINES
    )
    result = topics_import(project=project, path=DEMO_DIR / "scico_demo.jsonl", format="scico")
    assignments = _assign_all(project, annotators)
    topics = {topic.external_id: topic for topic in project.topics.all()}
    for user, file in zip(
        annotators, ("scico_demo_annotator_a.jsonl", "scico_demo_annotator_b.jsonl")
    ):
        for data in read("scico", DEMO_DIR / file).topics:
            assignment = assignments[(topics[data.external_id].pk, user.pk)]
            annotation_import_for_assignment(assignment=assignment, topic=data, file=file)
            assignment_submit(assignment_id=assignment.pk, user=user)
    return (
        f"{len(result.topics)} topics with gold; annotator A's and B's annotations submitted as "
        f"{' and '.join(u.username for u in annotators)}"
    )
