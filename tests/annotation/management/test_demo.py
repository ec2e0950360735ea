"""The demo `make up` loads: three projects on first start, nothing more on the next."""

from io import StringIO

import pytest
from django.core.management import call_command

from annotation.models import Annotation, Assignment, Operation, Project, Topic
from fixtures.demo.load import demo_load
from modelserve.models import SuggestionSettings
from modelserve.selectors import project_suggestion_settings
from onboarding.models import PracticeTopic
from reporting.selectors.agreement import project_agreement

pytestmark = pytest.mark.django_db


def load_demo():
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue().splitlines()


def counts():
    return [model.objects.count() for model in (Project, Topic, Assignment, Annotation, Operation)]


def test_the_first_load_creates_the_five_projects_and_prints_a_line_for_each():
    lines = load_demo()

    assert lines[0] == "demo accounts created: admin, annotator1, annotator2"
    assert [line.split(":")[0] for line in lines[1:]] == [
        "SciCo demo",
        "ChEMU-Ref demo",
        "SciCo agreement demo",
        "Validation demo",
        "Onboarding demo",
    ]


def test_the_scico_demo_has_gold_and_every_topic_assigned_to_both_annotators():
    load_demo()
    project = Project.objects.get(name="SciCo demo")

    assert (project.hierarchy, project.anaphora, project.single_parent) == (True, False, True)
    assert project.topics.count() == 6
    assert Annotation.objects.filter(topic__project=project, kind="gold").count() == 6
    assignments = Assignment.objects.filter(topic__project=project)
    assert sorted(set(assignments.values_list("user__username", flat=True))) == [
        "annotator1",
        "annotator2",
    ]
    assert assignments.count() == 12
    assert set(assignments.values_list("status", flat=True)) == {"assigned"}


def test_the_chemu_demo_is_an_anaphora_project_whose_mentions_annotators_may_edit():
    load_demo()
    project = Project.objects.get(name="ChEMU-Ref demo")

    assert (project.hierarchy, project.anaphora) == (False, True)
    assert project.allow_add_mentions
    assert project.allow_fix_spans
    assert project.allow_reject_mentions
    assert project.topics.count() == 8
    assert Assignment.objects.filter(topic__project=project).count() == 16


def test_the_chemu_demo_suggests_with_the_chemu_anaphora_model():
    load_demo()
    project = Project.objects.get(name="ChEMU-Ref demo")

    assert project_suggestion_settings(project.pk).backend == "chemu"


def test_the_scico_demos_suggest_with_the_default_backend_which_needs_no_training():
    load_demo()

    for name in ("SciCo demo", "SciCo agreement demo"):
        project = Project.objects.get(name=name)
        assert project_suggestion_settings(project.pk).backend == "minilm"


def test_a_chemu_demo_loaded_before_it_had_a_backend_gets_the_chemu_model_on_the_next_start():
    load_demo()
    project = Project.objects.get(name="ChEMU-Ref demo")
    SuggestionSettings.objects.filter(project=project).delete()

    lines = load_demo()

    assert lines == ["ChEMU-Ref demo: suggestions from chemu"]
    assert project_suggestion_settings(project.pk).backend == "chemu"


def test_the_next_start_keeps_the_backend_an_admin_chose_for_the_chemu_demo():
    load_demo()
    project = Project.objects.get(name="ChEMU-Ref demo")
    SuggestionSettings.objects.filter(project=project).update(backend="minilm")

    assert load_demo() == []
    assert project_suggestion_settings(project.pk).backend == "minilm"


def test_the_agreement_demo_has_both_annotators_submissions_and_a_report_on_first_start():
    load_demo()
    project = Project.objects.get(name="SciCo agreement demo")

    assert Assignment.objects.filter(topic__project=project, status="submitted").count() == 12
    report = project_agreement(project)
    assert report["annotators"] == ["annotator1", "annotator2"]
    # practice topics measure annotators against gold, not agreement
    practice = PracticeTopic.objects.filter(topic__project=project).count()
    assert len(report["topics"]) == 6 - practice
    assert report["unscored_topics"] == []
    assert 0.8 < report["overall"]["conll_f1"]["avg"] < 1


def test_a_second_load_adds_nothing():
    load_demo()
    before = counts()

    lines = load_demo()

    assert lines == []
    assert counts() == before


def test_forcing_recreates_only_missing_demo_projects():
    load_demo()
    Project.objects.get(name="ChEMU-Ref demo").delete()

    lines = demo_load(password="x", force=True)

    assert lines == [
        "SciCo demo: already there",
        "ChEMU-Ref demo: 8 snippets with gold links, assigned to annotator1, annotator2",
        "SciCo agreement demo: already there",
    ]


def test_a_database_with_projects_of_its_own_gets_no_demo_projects():
    Project.objects.create(name="mine")

    load_demo()

    assert list(Project.objects.values_list("name", flat=True)) == ["mine"]
