"""CorefUD files through the app (real PostgreSQL): a guessed format, entities as gold
clusters, bridges outside the link scheme left out with a warning (never a 500), and the
gold written back as the same CorefUD file."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from annotation.models import RelationLink, Topic
from tests.paths import REPO

pytestmark = pytest.mark.django_db

DATA = REPO / "tests" / "data" / "corefud"


def run(command, *args):
    out = StringIO()
    call_command(command, *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_a_corefud_file_imports_as_gold_and_exports_unchanged(tmp_path):
    source = DATA / "fr_democrat_dev_sample.conllu"
    out = run("import_topics", "--project", "Fr", "--create", str(source))

    assert "format guessed: corefud" in out
    assert Topic.objects.count() == 2
    target = tmp_path / "gold.conllu"
    run("export_annotations", "--project", "Fr", "--format", "corefud", str(target))
    assert target.read_text() == source.read_text()


def test_bridges_are_left_out_of_the_database_with_a_warning():
    out = run(
        "import_topics",
        "--project",
        "Gum",
        "--create",
        "--format",
        "corefud",
        str(DATA / "gum_dev_excerpt.conllu"),
    )
    assert "topic GUM_bio_byron: link(s) 1 BRIDGE left out" in out
    assert RelationLink.objects.count() == 0
    assert Topic.objects.count() == 2


def test_an_annotators_corefud_file_becomes_their_submitted_annotation():
    source = DATA / "fr_democrat_dev_sample.conllu"
    run("import_topics", "--project", "Team", "--create", "--format", "corefud", str(source))

    out = run(
        "import_annotations",
        "--project",
        "Team",
        "--user",
        "ann",
        "--format",
        "corefud",
        "--create-user",
        "--submit",
        str(source),
    )

    assert "imported 2 topic(s) for ann into project 'Team', 2 submitted" in out
    from annotation.models import Assignment
    from annotation.selectors.topic_data import annotation_topic_data

    for assignment in Assignment.objects.filter(user__username="ann"):
        gold = assignment.topic.annotations.get(kind="gold")
        mine, expected = annotation_topic_data(assignment.annotation), annotation_topic_data(gold)
        assert sorted((m.spans, m.cluster is None) for m in mine.mentions) == sorted(
            (m.spans, m.cluster is None) for m in expected.mentions
        )
        assert len(mine.clusters) == len(expected.clusters)
