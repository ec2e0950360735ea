"""`export_annotations --split NAME` writes the topics of one split only."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotation.models import Topic
from annotation.services.imports.topics import topics_import
from corefscore.formats import read
from tests.factories import ProjectFactory
from tests.paths import SCICO_DEMO

pytestmark = pytest.mark.django_db


@pytest.fixture
def split_project():
    project = ProjectFactory(name="split")
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    topics = list(Topic.objects.filter(project=project).order_by("position"))
    for i, topic in enumerate(topics):
        topic.split = "test" if i % 2 else "train"
        topic.save(update_fields=["split"])
    return project, topics


def test_an_export_with_split_holds_only_that_splits_topics(split_project, tmp_path):
    _, topics = split_project
    target = tmp_path / "test.jsonl"

    call_command(
        "export_annotations",
        "--project", "split", "--format", "scico", "--split", "test", str(target),
        stdout=StringIO(),
    )  # fmt: skip

    written = [t.external_id for t in read("scico", target).topics]
    assert written == [t.external_id for t in topics if t.split == "test"]
    assert written


def test_an_export_of_a_split_nobody_has_is_refused_naming_it(split_project, tmp_path):
    with pytest.raises(CommandError, match="in split 'dev'"):
        call_command(
            "export_annotations",
            "--project", "split", "--format", "scico", "--split", "dev", str(tmp_path / "x"),
            stdout=StringIO(),
        )  # fmt: skip
