"""The validation demo project: the SciCo demo's clusters to validate, for both annotators."""

import pytest

from annotation.models import Annotation, Assignment, Project
from fixtures.demo.validation import NAME, demo_validation_load
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_validation_demo_has_clusters_to_validate_assigned_to_both_annotators():
    annotators = [UserFactory(username="annotator1"), UserFactory(username="annotator2")]

    (line,) = demo_validation_load(annotators)

    project = Project.objects.get(name=NAME)
    assert project.scheme == "validation"
    assert line.startswith(f"{NAME}: 6 topics")
    assert Annotation.objects.filter(topic__project=project, kind="gold").count() == 6
    assert Assignment.objects.filter(topic__project=project).count() == 12
    assert demo_validation_load(annotators) == []
