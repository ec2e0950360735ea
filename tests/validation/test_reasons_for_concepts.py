"""A validation project's reasons fit what its clusters are: scientific concepts (SciCo's
clusters, our model's suggestion runs) are not rejected for WEC's event wording (a trigger
phrase, a sub-event). The admin's form says which (`validation_reasons_for`), the command
lines and the demo choose by the source, and WEC's three stay for events."""

import pytest
from django.core.management import call_command

from annotation.models import CONCEPT_REASONS, WEC_REASONS, Project
from tests.factories import ProjectFactory, make_topic, mention_ids
from tests.modelserve.api.test_suggestions_payload import finished_run
from tests.paths import DEMO

pytestmark = pytest.mark.django_db

EVENT_WORDS = ("trigger", "event")


def worded_for_events(reasons) -> bool:
    return any(
        word in r["label"].lower() or word in r["key"] for r in reasons for word in EVENT_WORDS
    )


@pytest.mark.parametrize(
    ("kind", "reasons"), [("concepts", CONCEPT_REASONS), ("events", WEC_REASONS)]
)
def test_the_admin_says_what_the_clusters_are_and_gets_their_reasons(admin_client, kind, reasons):
    made = admin_client.post(
        "/api/projects/",
        {"name": kind, "hierarchy": False, "validation": True, "validation_reasons_for": kind},
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["validation_reasons"] == reasons
    assert Project.objects.get(name=kind).validation_reasons == reasons


def test_reasons_given_win_over_the_kind(admin_client):
    mine = [{"key": "other", "label": "Not this concept"}]
    made = admin_client.post(
        "/api/projects/",
        {
            "name": "mine",
            "hierarchy": False,
            "validation": True,
            "validation_reasons_for": "events",
            "validation_reasons": mine,
        },
        format="json",
    )
    assert made.json()["validation_reasons"] == mine


def test_a_kind_that_is_not_known_is_refused_and_nothing_is_made(admin_client):
    made = admin_client.post(
        "/api/projects/",
        {"name": "odd", "hierarchy": False, "validation": True, "validation_reasons_for": "x"},
        format="json",
    )
    assert made.status_code == 400
    assert "validation_reasons_for" in str(made.json())
    assert not Project.objects.filter(name="odd").exists()


def test_clusters_from_our_models_runs_are_concepts():
    source = make_topic(ProjectFactory(name="papers"), external_id="t1")
    m = mention_ids(source)
    run = finished_run(source, [[m[0], m[1]]])
    call_command("validation_from_runs", "--project", "check", "--create", "--run", str(run.pk))
    reasons = Project.objects.get(name="check").validation_reasons
    assert reasons == CONCEPT_REASONS
    assert not worded_for_events(reasons)


def test_a_scico_file_imported_for_validation_gets_the_concept_reasons_others_wecs():
    path = str(DEMO / "scico_demo.jsonl")
    call_command("import_topics", "--project", "S", "--create", "--as", "validation", path)
    assert Project.objects.get(name="S").validation_reasons == CONCEPT_REASONS
    call_command(
        "import_topics", "--project", "E", "--create", "--as", "validation", "--reasons",
        "events", path,
    )  # fmt: skip
    assert Project.objects.get(name="E").validation_reasons == WEC_REASONS


def test_the_validation_demo_of_scico_clusters_speaks_of_concepts():
    from fixtures.demo.validation import NAME, demo_validation_load
    from tests.factories import UserFactory

    demo_validation_load([UserFactory()])
    project = Project.objects.get(name=NAME)
    assert project.validation_reasons == CONCEPT_REASONS
    assert not any(word in project.guidelines.lower() for word in EVENT_WORDS)
