"""The demo shows onboarding at once: a practice topic in each demo project, and a project
that requires qualification (its real topics locked for the demo annotators)."""

import pytest
from django.contrib.auth import get_user_model

from annotation.models import Project
from fixtures.demo.load import demo_load
from onboarding.models import PracticeTopic
from tests.factories import signed_in

pytestmark = pytest.mark.django_db


def test_every_demo_project_has_a_practice_topic_and_one_requires_qualification():
    lines = demo_load(password="a demo password")

    assert lines[-1].startswith("Onboarding demo: a guided (scientific_onboarding_tutorial)")
    # Every annotation demo project (a validation demo, where mentions are accepted or
    # rejected, has no gold clustering to practise against).
    for name in ("SciCo demo", "ChEMU-Ref demo", "SciCo agreement demo", "Onboarding demo"):
        assert PracticeTopic.objects.filter(topic__project__name=name).exists(), name
    onboarding = Project.objects.get(name="Onboarding demo")
    modes = sorted(
        PracticeTopic.objects.filter(topic__project=onboarding).values_list("mode", flat=True)
    )
    assert modes == ["guided", "scored"]
    assert onboarding.guidelines.startswith("# Linking scientific concepts")


def test_the_demo_annotators_see_real_onboarding_topics_locked_until_they_qualify():
    demo_load(password="a demo password")
    annotator = get_user_model().objects.get(username="annotator1")

    rows = signed_in(annotator).get("/api/assignments/mine/").json()
    onboarding = [r for r in rows if r["project"]["name"] == "Onboarding demo"]

    assert {r["topic"]["external_id"] for r in onboarding if r["locked"] is None} == {
        "scientific_onboarding_tutorial",
        "scored_onboarding_practice",
    }
    assert all(r["locked"] for r in onboarding if r["practice"] is None)
    assert len(onboarding) == 8


def test_loading_the_demo_twice_changes_nothing():
    demo_load(password="a demo password")
    before = PracticeTopic.objects.count()

    assert demo_load(password="a demo password") == []
    assert PracticeTopic.objects.count() == before
