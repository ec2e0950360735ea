"""`manage.py import_topics`: what it prints, when it refuses, and that refusing writes nothing."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotation.models import Annotation, Mention, Project, RelationLink, Topic
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
from tests.paths import (
    CHEMU_TRAIN,
    DEMO,
)


def run(*args):
    out, err = StringIO(), StringIO()
    call_command("import_topics", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_chemu_training_file_imports_whole_and_lists_each_entry_the_workspace_would_refuse():
    ProjectFactory(name="ChEMU", hierarchy=False, anaphora=True)

    out, _ = run("--project", "ChEMU", "--format", "chemu", str(CHEMU_TRAIN))

    lines = out.splitlines()
    assert lines[0].startswith(
        "train.english.jsonlines: imported 900 topic(s) into project 'ChEMU'"
    )
    assert not [line for line in lines if line.startswith("skipped ")]
    # 52 links with an empty side and 2 repeats, kept as released; 5 links the workspace
    # refuses (3 antecedents after their anaphor, 2 second TRANSFORMED links), kept and marked
    warnings = [line for line in lines if line.startswith("warning: ")]
    assert len(warnings) == 59
    assert sum("(rule order)" in line for line in warnings) == 3
    assert sum("(rule transformed_one_to_one)" in line for line in warnings) == 2
    assert Topic.objects.count() == 900
    assert Mention.objects.count() == 13764  # the distinct span sets the links join
    assert RelationLink.objects.count() == 12947


def test_with_skip_invalid_the_chemu_file_imports_the_same_nothing_left_out():
    ProjectFactory(name="ChEMU", hierarchy=False, anaphora=True)

    out, _ = run("--project", "ChEMU", "--format", "chemu", "--skip-invalid", str(CHEMU_TRAIN))

    assert "0 skipped" in out.splitlines()[0]
    assert Annotation.objects.filter(kind="gold").count() == 900
    assert RelationLink.objects.count() == 12947


def test_a_missing_project_is_refused_unless_create_is_given():
    with pytest.raises(CommandError, match="does not exist; create it first or pass --create"):
        run("--project", "New", "--format", "scico", str(DEMO / "scico_demo.jsonl"))
    assert not Project.objects.exists()


@pytest.mark.parametrize(
    ("format", "path", "scheme"),
    [
        ("scico", DEMO / "scico_demo.jsonl", "hierarchy"),
        ("chemu", DEMO / "chemu_demo.jsonlines", "anaphora"),
        ("brat", ROOT / "fixtures" / "formats" / "brat", "hierarchy+anaphora"),
    ],
)
def test_create_makes_the_project_with_the_scheme_of_the_format(format, path, scheme):
    out, _ = run("--project", "New", "--format", format, "--create", str(path))

    assert Project.objects.get(name="New").scheme == scheme
    assert out.startswith(f"created project 'New' ({scheme})")


def test_a_refused_import_with_create_leaves_no_empty_project(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n")

    with pytest.raises(CommandError):
        run("--project", "New", "--format", "scico", "--create", str(bad))

    assert not Project.objects.exists()


def test_a_refused_import_with_create_never_reports_the_project_it_rolled_back(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n")
    out, err = StringIO(), StringIO()

    with pytest.raises(CommandError):
        call_command(
            "import_topics", "--project", "New", "--format", "scico", "--create", str(bad),
            stdout=out, stderr=err,
        )  # fmt: skip

    assert "created project" not in out.getvalue() + err.getvalue()
    assert not Project.objects.exists()


def test_an_empty_file_exits_non_zero_and_creates_nothing(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")

    with pytest.raises(CommandError, match="holds no topic"):
        run("--project", "New", "--format", "scico", "--create", str(empty))

    assert not Project.objects.exists()


def test_an_import_whose_every_record_is_skipped_exits_non_zero(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n")
    ProjectFactory(name="P")

    with pytest.raises(CommandError, match="every topic was skipped"):
        run("--project", "P", "--format", "scico", "--skip-invalid", str(bad))

    assert not Topic.objects.exists()
