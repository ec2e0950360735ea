"""`manage.py adjudicate`: seeded adjudication assignments for the topics two annotators
submitted, or the topics named; refusals assign nothing."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from annotation.models import Assignment, Operation
from annotation.services.imports.topics import topics_import
from tests.factories import ProjectFactory, UserFactory
from tests.paths import DEMO

pytestmark = pytest.mark.django_db


def run(*args):
    out, err = StringIO(), StringIO()
    call_command("adjudicate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def annotators(*names: str, submit: bool = True) -> None:
    for name, letter in zip(names, "ab"[: len(names)], strict=True):
        args = ["--project", "SciCo", "--user", name, "--format", "scico", "--create-user"]
        call_command(
            "import_annotations",
            *args,
            *(["--submit"] if submit else []),
            str(DEMO / f"scico_demo_annotator_{letter}.jsonl"),
            stdout=StringIO(),
        )


def adjudications(username: str):
    return Assignment.objects.filter(user__username=username, role=Assignment.Role.ADJUDICATOR)


def test_every_topic_two_annotators_submitted_gets_a_consensus_seeded_adjudication(project):
    annotators("alice", "bob")

    out, _ = run("--project", "SciCo", "--user", "judge", "--create-user")

    assert adjudications("judge").count() == project.topics.count()
    for assignment in adjudications("judge"):
        seed = Operation.objects.get(annotation__assignment=assignment)
        assert (seed.name, seed.payload["seed"]) == ("adjudication_seed", "consensus")
    assert f"{project.topics.count()} adjudication assignment(s) for judge" in out
    assert not get_user_model().objects.get(username="judge").has_usable_password()


def test_named_topics_an_annotator_seed_and_submit(project):
    annotators("alice", "bob")
    UserFactory(username="judge")
    first = project.topics.order_by("position").first()

    run(
        "--project", "SciCo", "--user", "judge", "--seed", "alice", "--topics",
        first.external_id, "--submit",
    )  # fmt: skip

    (assignment,) = adjudications("judge")
    assert assignment.topic == first
    assert assignment.status == Assignment.Status.SUBMITTED
    assert (
        Operation.objects.get(annotation__assignment=assignment).payload["sources"][0]["annotator"]
        == "alice"
    )


def test_a_second_run_skips_the_topics_already_adjudicated(project):
    annotators("alice", "bob")
    run("--project", "SciCo", "--user", "judge", "--create-user")

    out, _ = run("--project", "SciCo", "--user", "judge")

    assert adjudications("judge").count() == project.topics.count()
    assert "0 adjudication assignment(s) for judge" in out
    assert "skipped" in out


def test_without_two_submitted_annotations_there_is_nothing_to_adjudicate(project):
    annotators("alice")
    UserFactory(username="judge")

    with pytest.raises(CommandError, match="has two submitted annotations yet"):
        run("--project", "SciCo", "--user", "judge")


def test_a_named_topic_that_cannot_be_seeded_refuses_the_whole_batch(project):
    annotators("alice", "bob")
    annotators("carol", submit=False)
    UserFactory(username="judge")
    first, second = project.topics.order_by("position")[:2]
    err = StringIO()

    with pytest.raises(CommandError, match="no adjudication was assigned"):
        call_command(
            "adjudicate", "--project", "SciCo", "--user", "judge", "--seed", "carol",
            "--topics", first.external_id, second.external_id, stdout=StringIO(), stderr=err,
        )  # fmt: skip

    assert f"topic {first.external_id}: Cannot seed topic" in err.getvalue()
    assert "carol has not submitted it" in err.getvalue()
    assert not adjudications("judge").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--user", "ghost"], "User ghost does not exist; create it first or pass --create-user"),
        (["--user", "judge", "--topics", "nope"], "Not topics of project 'SciCo': nope"),
        (["--user", "alice"], "alice already annotates topic"),
        (["--user", "judge", "--threshold", "1.5"], "threshold must be at least 0 and below 1"),
    ],
)
def test_refusals_assign_nothing(project, args, message):
    annotators("alice", "bob")
    UserFactory(username="judge")

    with pytest.raises(CommandError, match=message):
        run("--project", "SciCo", *args)
    assert not Assignment.objects.filter(role=Assignment.Role.ADJUDICATOR).exists()


def test_a_chemu_topic_two_annotators_agree_on_is_seeded_with_their_links_and_submitted():
    from annotation.models import RelationLink
    from tests.paths import CHEMU_DEMO

    project = ProjectFactory(name="ChEMU", hierarchy=False, anaphora=True)
    topics_import(project=project, path=CHEMU_DEMO, format="chemu")
    for name in ("alice", "bob"):
        call_command(
            "import_annotations", "--project", "ChEMU", "--user", name, "--format", "chemu",
            "--create-user", "--submit", str(CHEMU_DEMO), stdout=StringIO(),
        )  # fmt: skip

    run("--project", "ChEMU", "--user", "judge", "--create-user", "--submit")

    def links(username):
        return sorted(
            RelationLink.objects.filter(
                annotation__assignment__user__username=username
            ).values_list("annotation__topic__external_id", "type", "anaphor_id", "antecedent_id")
        )

    assert links("judge") == links("alice")
    assert links("alice")
    assert {a.status for a in adjudications("judge")} == {Assignment.Status.SUBMITTED}
