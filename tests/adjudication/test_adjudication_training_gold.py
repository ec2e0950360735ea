"""Training suggestions takes each topic's gold as selectors.gold defines it: the submitted
adjudication where there is one, else the imported gold."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from adjudication.services.adjudications import create_adjudication
from annotation.models import Annotation
from annotation.services.assignments import assignment_submit
from annotation.services.imports.topics import topics_import
from modelserve.management.commands.train_suggester import _training_annotations
from tests.factories import ProjectFactory, UserFactory
from tests.paths import DEMO, SCICO_DEMO

pytestmark = pytest.mark.django_db


def test_a_submitted_adjudication_replaces_the_imported_gold_for_training():
    project = ProjectFactory(name="SciCo")
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    call_command(
        "import_annotations", "--project", "SciCo", "--user", "alice", "--format", "scico",
        "--create-user", "--submit", str(DEMO / "scico_demo_annotator_a.jsonl"), stdout=StringIO(),
    )  # fmt: skip
    first, *rest = project.topics.order_by("position")
    judge = UserFactory()
    assignment = create_adjudication(topic=first, user=judge, seed="alice")
    assignment_submit(assignment_id=assignment.pk, user=judge)

    chosen = _training_annotations(project)

    assert [a.topic for a in chosen] == [first, *rest]
    assert chosen[0].kind == Annotation.Kind.ADJUDICATION
    assert chosen[0].assignment == assignment
    assert {a.kind for a in chosen[1:]} == {Annotation.Kind.GOLD}
