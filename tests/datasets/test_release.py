"""`dataset_release`: the bundle's files, the same bytes on a re-run, a datasheet without
names unless asked, and every file read back: the annotation files through our importers
(their statistics equal the bundle's), the CSV and JSON files through their readers."""

import csv
import io
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotation.models import Assignment, Mention, Project, Topic
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.imports.annotation import annotation_import_for_assignment
from annotation.services.imports.topics import topics_import
from corefscore.formats import read
from datasets.selectors import project_statistics
from datasets.services.splits import dataset_split
from datasets.statistics import stats_rows
from fixtures.demo.load import DEMO_DIR, demo_load
from reporting.selectors.agreement import project_agreement, project_agreement_csv
from reporting.selectors.agreement_files import agreement_tables
from tests.factories import AdminFactory, ProjectFactory

pytestmark = pytest.mark.django_db

AGREEMENT = "SciCo agreement demo"
CHEMU = "ChEMU-Ref demo"
# What each format carries, so what a re-import must give back.
CARRIED = {
    "scico": (
        "topics", "documents", "tokens", "mentions", "clusters", "singletons", "relations",
        "mean_components", "mean_max_depth",
    ),
    # CoRefi has no hierarchy (docs/formats.md): clusters come back, relations do not.
    "corefi": ("topics", "documents", "tokens", "mentions", "clusters", "singletons"),
    "chemu": ("topics", "documents", "tokens", "mentions", "discontinuous_mentions", "links",
              "anaphors"),
}  # fmt: skip


@pytest.fixture
def demo():
    demo_load(password="a demo password")


@pytest.fixture
def adjudicated(demo):
    """The agreement demo with its first topic adjudicated (annotator B's version submitted
    by an adjudicator) and split in two."""
    project = Project.objects.get(name=AGREEMENT)
    # Its first real topic: the demo's first topic is a practice topic, which no release counts.
    topic = project.topics.filter(practice__isnull=True).order_by("position").first()
    judge = AdminFactory(username="judge")
    version = next(
        t
        for t in read("scico", DEMO_DIR / "scico_demo_annotator_b.jsonl").topics
        if t.external_id == topic.external_id
    )
    assignment = assignment_create(topic=topic, user=judge, role=Assignment.Role.ADJUDICATOR)
    annotation_import_for_assignment(assignment=assignment, topic=version)
    assignment_submit(assignment_id=assignment.pk, user=judge)
    dataset_split(project=project, ratios=[0.5, 0.5], seed=3)
    return project


def release(project: str, out: Path, *args) -> list[str]:
    stdout = StringIO()
    call_command("dataset_release", "--project", project, str(out), *args, stdout=stdout)
    return stdout.getvalue().splitlines()


def files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_the_bundle_holds_each_split_in_each_format_the_statistics_agreement_and_datasheet(
    adjudicated, tmp_path
):
    release(AGREEMENT, tmp_path / "out")

    assert sorted(files(tmp_path / "out")) == [
        "DATASHEET.md",
        "agreement.csv",
        "agreement_left_out.csv",
        "agreement_vs_gold.csv",
        "conll/test.conll",
        "conll/train.conll",
        "scico/test.jsonl",
        "scico/train.jsonl",
        "statistics.csv",
        "statistics.json",
    ]


def test_a_rerun_over_the_same_data_writes_the_same_bytes(adjudicated, tmp_path):
    release(AGREEMENT, tmp_path / "a", "--formats", "scico,conll,brat,corefi")
    first = files(tmp_path / "a")
    release(AGREEMENT, tmp_path / "a", "--formats", "scico,conll,brat,corefi")
    release(AGREEMENT, tmp_path / "b", "--formats", "scico,conll,brat,corefi")

    assert files(tmp_path / "a") == first
    assert files(tmp_path / "b") == first


def test_the_datasheet_counts_annotators_and_names_them_only_when_asked(adjudicated, tmp_path):
    release(AGREEMENT, tmp_path / "anonymous")
    release(AGREEMENT, tmp_path / "named", "--with-names")

    anonymous = (tmp_path / "anonymous" / "DATASHEET.md").read_text()
    named = (tmp_path / "named" / "DATASHEET.md").read_text()
    for heading in (
        "## Composition",
        "## Annotation process",
        "### Guidelines",
        "## Inter-annotator agreement",
        "## Annotators against the gold",
        "## Adjudication and validation",
        "## Splits",
        "## Files",
    ):
        assert heading in anonymous
    assert "Annotators: 2; adjudicators: 1." in anonymous
    # Against each real topic's gold: the adjudication on one, the imported gold on four (the
    # practice topic is left out).
    assert "the adjudication on 1 topic, the imported gold on 4 topics" in anonymous
    assert "| annotator A | 5 |" in anonymous
    assert "| annotator B | 5 |" in anonymous
    assert "Topics whose gold is a submitted adjudication: 1;" in anonymous
    assert "Seed: 3; ratios: train 0.5, test 0.5." in anonymous
    assert "| CoNLL F1 |" in anonymous
    assert "Validation decisions: none." in anonymous
    for name in ("annotator1", "annotator2", "judge"):
        assert name not in anonymous
        assert name in named
    assert "| annotator2 | 5 |" in named


def test_without_names_the_agreement_csv_is_pseudonymised_like_the_datasheet(adjudicated, tmp_path):
    release(AGREEMENT, tmp_path / "anonymous")
    release(AGREEMENT, tmp_path / "named", "--with-names")

    anonymous = (tmp_path / "anonymous" / "agreement_vs_gold.csv").read_text()
    named = (tmp_path / "named" / "agreement_vs_gold.csv").read_text()
    assert named == agreement_tables(project_agreement(adjudicated))["agreement_vs_gold.csv"]
    assert "vs_gold,annotator1," in named
    assert "vs_gold,annotator A," in anonymous
    for name in ("annotator1", "annotator2", "judge"):
        assert name not in anonymous
    # The same report otherwise: only the names differ.
    assert anonymous == named.replace("annotator1", "annotator A").replace(
        "annotator2", "annotator B"
    )


def test_every_annotation_file_imports_back_with_the_statistics_of_its_split(adjudicated, tmp_path):
    out = tmp_path / "out"
    release(AGREEMENT, out, "--formats", "scico,corefi,brat,conll")
    bundle = json.loads((out / "statistics.json").read_text())

    for split in ("train", "test"):
        for format, path in (("scico", f"scico/{split}.jsonl"), ("corefi", f"corefi/{split}")):
            copy = ProjectFactory(name=f"{format} {split}")
            topics_import(project=copy, path=out / path, format=format)
            again = project_statistics(copy)["total"]
            for key in CARRIED[format]:
                assert again[key] == bundle["splits"][split][key], (format, split, key)
        brat = ProjectFactory(name=f"brat {split}", anaphora=True)
        topics_import(project=brat, path=out / "brat" / split, format="brat")
        # brat writes every mention (T lines) but only clusters of two or more, one pair per
        # document: documents without such a cluster come back without gold, so the mentions
        # are counted as the topics' candidates.
        mentions = Mention.objects.filter(topic__project=brat).count()
        assert mentions == bundle["splits"][split]["mentions"]
        conll = (out / "conll" / f"{split}.conll").read_text()
        assert conll.count("#begin document") == bundle["splits"][split]["topics"]


def test_the_anaphora_bundle_imports_back_with_its_links(demo, tmp_path):
    project = Project.objects.get(name=CHEMU)
    out = tmp_path / "chemu"

    release(CHEMU, out)

    bundle = json.loads((out / "statistics.json").read_text())
    assert bundle["splits"] == {}
    copy = ProjectFactory(name="chemu again", hierarchy=False, anaphora=True)
    topics_import(project=copy, path=out / "chemu" / "all.jsonlines", format="chemu")
    again = project_statistics(copy)["total"]
    assert {k: again[k] for k in CARRIED["chemu"]} == {
        k: bundle["total"][k] for k in CARRIED["chemu"]
    }
    assert bundle == project_statistics(project)


def test_the_csv_and_json_files_read_back_as_what_the_database_says(adjudicated, tmp_path):
    out = tmp_path / "out"
    release(AGREEMENT, out)

    statistics = json.loads((out / "statistics.json").read_text())
    assert statistics == project_statistics(adjudicated)
    with open(out / "statistics.csv", newline="") as stream:
        assert list(csv.reader(stream)) == stats_rows(statistics)
    # One table per file (the annotator-vs-gold table is agreement_vs_gold.csv)
    with open(out / "agreement.csv", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert {row["scope"] for row in rows} >= {"topic", "overall"}
    expected = list(csv.DictReader(io.StringIO(project_agreement_csv(adjudicated))))
    assert rows == expected  # no name in that table: it is the report's own


def test_a_folder_that_holds_something_else_is_refused(adjudicated, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")

    with pytest.raises(CommandError, match="holds no earlier release"):
        release(AGREEMENT, tmp_path)

    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert Topic.objects.filter(project=adjudicated).exclude(split="").exists()


def test_split_names_that_share_a_file_name_are_refused_before_anything_is_written(
    adjudicated, tmp_path
):
    topics = list(adjudicated.topics.order_by("position"))
    Topic.objects.filter(pk=topics[0].pk).update(split="a/b")
    Topic.objects.filter(pk__in=[t.pk for t in topics[1:]]).update(split="a_b")

    with pytest.raises(CommandError, match="'a/b' and 'a_b' would be written to the same file"):
        release(AGREEMENT, tmp_path / "out")

    assert not (tmp_path / "out").exists()


def test_split_names_that_differ_only_in_case_are_refused_before_anything_is_written(
    adjudicated, tmp_path
):
    """`Train.jsonl` and `train.jsonl` are one file on a case-insensitive file system: the
    refusal folds case as the export's file naming does."""
    topics = list(adjudicated.topics.order_by("position"))
    Topic.objects.filter(pk=topics[0].pk).update(split="Train")
    Topic.objects.filter(pk__in=[t.pk for t in topics[1:]]).update(split="train")

    with pytest.raises(CommandError, match="names differ only in case") as refused:
        release(AGREEMENT, tmp_path / "out")

    assert "'Train'" in str(refused.value)
    assert "'train'" in str(refused.value)

    assert not (tmp_path / "out").exists()
