"""`manage.py import_annotations`: one annotator's file of topics already in a project."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from annotation.models import Assignment, Operation, RelationLink
from annotation.selectors.topic_data import annotation_topic_data
from annotation.services.imports.topics import topics_import
from corefscore.formats import read
from tests.factories import ProjectFactory, UserFactory
from tests.paths import CHEMU_DEMO, DEMO

pytestmark = pytest.mark.django_db

ANNOTATOR_A = DEMO / "scico_demo_annotator_a.jsonl"


def run(*args):
    out, err = StringIO(), StringIO()
    call_command("import_annotations", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_an_annotators_file_becomes_their_annotation_of_every_topic(project):
    out, _ = run(
        "--project",
        "SciCo",
        "--user",
        "ann",
        "--format",
        "scico",
        "--create-user",
        str(ANNOTATOR_A),
    )

    expected = {t.external_id: t for t in read("scico", ANNOTATOR_A).topics}
    assignments = Assignment.objects.filter(user__username="ann").select_related("topic")
    assert sorted(a.topic.external_id for a in assignments) == sorted(expected)
    for assignment in assignments:
        annotation = assignment.annotation
        assert annotation_topic_data(annotation) == expected[assignment.topic.external_id]
        assert [o.name for o in Operation.objects.filter(annotation=annotation)] == ["import"]
    assert f"imported {len(expected)} topic(s) for ann into project 'SciCo'" in out


def test_create_user_makes_an_annotator_with_an_unusable_password(project):
    out, _ = run(
        "--project", "SciCo", "--user", "newbie", "--format", "scico", "--create-user",
        str(ANNOTATOR_A),
    )  # fmt: skip

    user = get_user_model().objects.get(username="newbie")
    assert not user.has_usable_password()
    assert not user.is_staff
    assert "created user newbie" in out


def test_submit_marks_the_imported_assignments_submitted(project):
    UserFactory(username="ann")

    run("--project", "SciCo", "--user", "ann", "--format", "scico", "--submit", str(ANNOTATOR_A))

    statuses = set(Assignment.objects.filter(user__username="ann").values_list("status", flat=True))
    assert statuses == {Assignment.Status.SUBMITTED}


def test_links_of_a_chemu_file_are_imported():
    project = ProjectFactory(name="ChEMU", hierarchy=False, anaphora=True)
    topics_import(project=project, path=CHEMU_DEMO, format="chemu")
    UserFactory(username="ann")

    run("--project", "ChEMU", "--user", "ann", "--format", "chemu", str(CHEMU_DEMO))

    expected = sum(len(t.links) for t in read("chemu", CHEMU_DEMO, link_rules=True).topics)
    assert expected
    assert (
        RelationLink.objects.filter(annotation__assignment__user__username="ann").count()
        == expected
    )


def nothing_written(username: str) -> bool:
    return not Assignment.objects.filter(user__username=username).exists()


def test_an_unknown_user_is_refused_without_create_user(project):
    with pytest.raises(
        CommandError, match="user ghost does not exist; create it first or pass --create-user"
    ):
        run("--project", "SciCo", "--user", "ghost", "--format", "scico", str(ANNOTATOR_A))
    assert not get_user_model().objects.filter(username="ghost").exists()


def test_an_unknown_project_is_refused():
    with pytest.raises(CommandError, match="project 'Nope' does not exist"):
        run("--project", "Nope", "--user", "ann", "--format", "scico", str(ANNOTATOR_A))


def rewritten(tmp_path, change) -> str:
    lines = [json.loads(line) for line in ANNOTATOR_A.read_text().splitlines() if line.strip()]
    change(lines)
    path = tmp_path / "annotator.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


def test_a_mention_the_topic_lacks_names_the_topic_and_the_mention_and_nothing_is_written(
    project, tmp_path
):
    def shift(lines):
        lines[1]["mentions"][0][1:3] = [0, 0]  # document 0, token 0 only

    path = rewritten(tmp_path, shift)
    topic = json.loads(ANNOTATOR_A.read_text().splitlines()[1])
    word = topic["tokens"][topic["mentions"][0][0]][0]
    err = StringIO()

    with pytest.raises(CommandError, match="nothing was imported for ann"):
        call_command(
            "import_annotations", "--project", "SciCo", "--user", "ann", "--format", "scico",
            "--create-user", path, stdout=StringIO(), stderr=err,
        )  # fmt: skip

    assert f'("{word}") is not a mention of topic {topic["id"]}' in err.getvalue()
    assert nothing_written("ann")
    assert not get_user_model().objects.filter(username="ann").exists()


def test_a_topic_outside_the_project_is_refused(project, tmp_path):
    def rename(lines):
        lines[0]["id"] = 424242

    err = StringIO()
    with pytest.raises(CommandError):
        call_command(
            "import_annotations", "--project", "SciCo", "--user", "ann", "--format", "scico",
            "--create-user", rewritten(tmp_path, rename), stdout=StringIO(), stderr=err,
        )  # fmt: skip
    assert "topic 424242 is not in project 'SciCo'" in err.getvalue()
    assert nothing_written("ann")


def test_an_annotation_that_is_not_empty_is_refused_and_kept(project):
    run(
        "--project",
        "SciCo",
        "--user",
        "ann",
        "--format",
        "scico",
        "--create-user",
        str(ANNOTATOR_A),
    )
    before = Operation.objects.count()

    with pytest.raises(CommandError, match="nothing was imported"):
        run("--project", "SciCo", "--user", "ann", "--format", "scico", str(ANNOTATOR_A))
    assert Operation.objects.count() == before


def test_submit_refuses_a_hierarchy_topic_with_a_mention_outside_every_cluster(project, tmp_path):
    def unclustered(lines):
        lines[0]["mentions"] = lines[0]["mentions"][1:]  # the topic's first candidate is left out

    UserFactory(username="ann")
    err = StringIO()
    with pytest.raises(CommandError):
        call_command(
            "import_annotations", "--project", "SciCo", "--user", "ann", "--format", "scico",
            "--submit", rewritten(tmp_path, unclustered), stdout=StringIO(), stderr=err,
        )  # fmt: skip
    assert "not in a cluster yet" in err.getvalue()
    assert nothing_written("ann")


def test_an_annotation_exported_as_corefi_imports_back_for_another_annotator(project, tmp_path):
    format = "corefi"
    run(
        "--project",
        "SciCo",
        "--user",
        "ann",
        "--format",
        "scico",
        "--create-user",
        str(ANNOTATOR_A),
    )
    call_command(
        "export_annotations", "--project", "SciCo", "--format", format, "--source", "ann",
        str(tmp_path / "ann"), stdout=StringIO(),
    )  # fmt: skip

    run(
        "--project",
        "SciCo",
        "--user",
        "copy",
        "--format",
        format,
        "--create-user",
        str(tmp_path / "ann"),
    )

    def mine(username):
        rows = Assignment.objects.filter(user__username=username).select_related("topic")
        return {a.topic.external_id: annotation_topic_data(a.annotation) for a in rows}

    original, copied = mine("ann"), mine("copy")
    assert sorted(copied) == sorted(original)
    for topic_id, data in original.items():
        assert clusters_of(copied[topic_id]) == clusters_of(data)
        # CoRefi files carry no hierarchy: the clusters are what comes back


def clusters_of(data) -> list[list]:
    return sorted(sorted(m) for m in _members(data).values())


def _members(data) -> dict:
    found: dict = {}
    for mention in data.mentions:
        if mention.cluster is not None:
            found.setdefault(mention.cluster, []).append(mention.key)
    return found


def test_links_exported_as_brat_import_back_for_another_annotator(tmp_path):
    project = ProjectFactory(name="ChEMU", hierarchy=False, anaphora=True)
    topics_import(project=project, path=CHEMU_DEMO, format="chemu")
    UserFactory(username="ann")
    run("--project", "ChEMU", "--user", "ann", "--format", "chemu", str(CHEMU_DEMO))
    call_command(
        "export_annotations", "--project", "ChEMU", "--format", "brat", "--source", "ann",
        str(tmp_path / "ann"), stdout=StringIO(),
    )  # fmt: skip

    run(
        "--project",
        "ChEMU",
        "--user",
        "copy",
        "--format",
        "brat",
        "--create-user",
        str(tmp_path / "ann"),
    )

    def links(username):
        rows = RelationLink.objects.filter(annotation__assignment__user__username=username)
        return sorted(
            (r.annotation.topic.external_id, r.type, r.anaphor_id, r.antecedent_id)
            for r in rows.select_related("annotation__topic")
        )

    assert links("copy") == links("ann")
    assert links("ann")
