"""`manage.py dataset_stats`: sources, --split, the table and the refusals."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from datasets.statistics import STATS_KEYS
from tests.factories import ProjectFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.project(
        name="scico", annotators={"alice": "scico_demo_annotator_a.jsonl"}, split=[0.5, 0.5]
    ),
]


def stats(*args) -> str:
    out = StringIO()
    call_command("dataset_stats", "--project", "scico", *args, stdout=out)
    return out.getvalue()


def test_split_gives_that_splits_figures_alone(project):
    whole = json.loads(stats("--json"))
    one = json.loads(stats("--json", "--split", "test"))

    assert one == {"total": whole["splits"]["test"], "splits": {"test": whole["splits"]["test"]}}


def test_a_source_without_annotations_still_has_every_key(project):
    result = json.loads(stats("--json", "--source", "adjudicated"))

    assert list(result["total"]) == list(STATS_KEYS)
    assert result["total"]["topics"] == 0
    assert result["total"]["links"]["WORK_UP"] == 0


def test_a_users_annotations_are_counted_as_they_annotated(project):
    gold = json.loads(stats("--json"))["total"]
    alice = json.loads(stats("--json", "--source", "alice"))["total"]
    submitted = json.loads(stats("--json", "--source", "submitted"))["total"]

    assert alice == submitted  # she is the only annotator
    assert alice["topics"] == gold["topics"]
    assert alice["mentions"] == gold["mentions"]
    assert alice["clusters"] != gold["clusters"]  # her clustering differs from the gold


def test_the_table_has_a_column_per_scope_and_a_line_per_statistic(project):
    lines = stats().splitlines()

    assert lines[0].split() == ["total", "train", "test"]
    assert [line.split()[0] for line in lines[1:4]] == ["topics", "documents", "tokens"]
    names = [line.split()[0] for line in lines[1:]]
    assert "anaphors" in names
    # The later figures come last (datasets/statistics.py): WEC's Table 1, then ChEMU
    # Table 1's link entries per type
    assert names[-7:-5] == ["ambiguity", "diversity"]
    assert names[-5:] == [
        "link_entries_COREFERENCE",
        "link_entries_TRANSFORMED",
        "link_entries_REACTION_ASSOCIATED",
        "link_entries_WORK_UP",
        "link_entries_CONTAINED",
    ]


def test_an_unknown_source_or_project_is_refused():
    ProjectFactory(name="scico")
    with pytest.raises(CommandError, match="no source or user named 'nobody'"):
        stats("--source", "nobody")
    with pytest.raises(CommandError, match="'missing' does not exist"):
        call_command("dataset_stats", "--project", "missing")
