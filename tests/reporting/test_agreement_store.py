"""The agreement report from stored per-pair counts (docs/agreement-store.md): the same numbers as
the from-scratch computation, never a stale row, rows stored after commit on submit."""

import random

import pytest

from annotation.models import Assignment, Cluster
from annotation.services.assignments import (
    assignment_create,
    assignment_reopen,
    assignment_submit,
)
from annotation.services.imports.annotation import annotation_import_for_assignment
from annotation.services.imports.topics import topics_import
from annotation.services.operations import annotation_operation_apply
from bench.scoring.generate import generate
from corefscore.formats import read
from reporting.models import AgreementPair
from reporting.selectors.agreement import agreement_csv, project_agreement
from tests.factories import ProjectFactory, UserFactory
from tests.paths import DEMO
from tests.reporting.agreement_scratch import project_agreement_scratch
from tests.reporting.test_agreement_db import load

pytestmark = pytest.mark.django_db


def same_report(project):
    """The stored path equals the from-scratch one, page (JSON) and CSV, to the last digit."""
    stored = project_agreement(project)
    scratch = project_agreement_scratch(project)
    assert stored == scratch
    assert agreement_csv(stored) == agreement_csv(scratch)
    return stored


@pytest.fixture
def scico_project():
    project = ProjectFactory(name="scico")
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")
    load(project, "alice", read("scico", DEMO / "scico_demo_annotator_a.jsonl").topics)
    load(project, "bob", read("scico", DEMO / "scico_demo_annotator_b.jsonl").topics)
    return project


def test_the_demo_report_from_stored_rows_equals_the_from_scratch_one(scico_project):
    first = same_report(scico_project)  # (rows missing: computed and stored)
    assert first["vs_gold"]["annotators"]  # the demo has gold: that section is compared too
    stored = AgreementPair.objects.filter(topic__project=scico_project).count()
    # 6 topics: one alice-bob pair and gold against each of them
    assert stored == 6 * 3
    assert same_report(scico_project) == first  # (all from stored rows now)


def test_the_chemu_demo_from_stored_rows_equals_the_from_scratch_one():
    project = ProjectFactory(name="chemu", hierarchy=False, anaphora=True)
    topics_import(project=project, path=DEMO / "chemu_demo.jsonlines", format="chemu")
    gold = read("chemu", DEMO / "chemu_demo.jsonlines").topics
    load(project, "alice", gold)
    for number, topic in enumerate(gold):
        for k, link in enumerate(topic.links):
            if (k + number) % 3 == 0:
                link.type = "CONTAINED" if link.type == "WORK_UP" else "WORK_UP"
    load(project, "bob", gold[1:])
    same_report(project)
    same_report(project)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_projects_from_stored_rows_equal_the_from_scratch_ones(tmp_path, seed):
    """Generated topics; annotators (named so that their order is not the file order) each
    submit a random subset, so topics are unscored, pairs missing and the topic order of
    `api.iaa` (annotators by name, each one's topics) differs from the project's."""
    rng = random.Random(seed)
    generate(tmp_path, topics=5, seed=seed)
    project = ProjectFactory(name=f"random {seed}", anaphora=rng.random() < 0.5)
    topics_import(project=project, path=tmp_path / "gold.jsonl", format="scico")
    names = rng.sample(["zoe", "amy", "kim", "bo"], rng.randint(2, 4))
    for number, name in enumerate(names, start=1):
        topics = read("scico", tmp_path / f"annotator{number}.jsonl").topics
        kept = [t for t in topics if rng.random() < 0.7]
        if kept:
            load(project, name, kept)
    same_report(project)
    same_report(project)


def test_a_stale_row_is_computed_again_never_shown(scico_project):
    """Outside a committed transaction no hook runs: the report alone must notice that a
    reopened, changed and resubmitted annotation no longer matches its stored rows."""
    before = same_report(scico_project)
    assignment = Assignment.objects.get(
        user__username="bob", topic__external_id=next(iter(before["topics"]))
    )
    version = assignment.annotation.version
    assignment_reopen(assignment_id=assignment.pk)
    source, target = Cluster.objects.filter(annotation=assignment.annotation)[:2]
    annotation_operation_apply(
        annotation_id=assignment.annotation.pk,
        user=assignment.user,
        expected_version=version,
        payload={"op": "merge", "source": source.pk, "target": target.pk},
    )
    assignment_submit(assignment_id=assignment.pk, user=assignment.user)

    after = same_report(scico_project)
    assert after["topics"] != before["topics"]
    row = AgreementPair.objects.get(response=assignment.annotation, key__kind="annotator")
    assert row.response_version > version


def test_missing_rows_are_computed(scico_project):
    same_report(scico_project)
    AgreementPair.objects.filter(topic__project=scico_project).delete()
    same_report(scico_project)
    assert AgreementPair.objects.filter(topic__project=scico_project).count() == 18


def test_the_primary_hierarchy_count_setting_keeps_the_numbers_right(scico_project):
    closure = same_report(scico_project)
    scico_project.hierarchy_count = "raw"
    scico_project.save()
    raw = same_report(scico_project)
    assert raw["hierarchy_count"] == "raw"
    assert raw["overall"] == closure["overall"]  # both counts are stored; only the order moves


def test_a_scheme_change_makes_every_row_stale(scico_project):
    same_report(scico_project)
    scico_project.anaphora = True
    scico_project.save()
    report = same_report(scico_project)
    assert "relation_exact_f1" in report["overall"]


def test_a_submit_stores_its_topics_rows_after_commit(django_capture_on_commit_callbacks):
    project = ProjectFactory(name="hook")
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")
    topic = project.topics.order_by("position").first()
    files = {"alice": "scico_demo_annotator_a.jsonl", "bob": "scico_demo_annotator_b.jsonl"}
    assignments = []
    for name, file in files.items():
        user = UserFactory(username=name)
        data = next(
            t for t in read("scico", DEMO / file).topics if t.external_id == topic.external_id
        )
        assignment = assignment_create(topic=topic, user=user)
        annotation_import_for_assignment(assignment=assignment, topic=data)
        assignments.append(assignment)
    with django_capture_on_commit_callbacks(execute=True):
        assignment_submit(assignment_id=assignments[0].pk, user=assignments[0].user)
    assert AgreementPair.objects.filter(topic=topic).count() == 1  # gold vs alice
    with django_capture_on_commit_callbacks(execute=True):
        assignment_submit(assignment_id=assignments[1].pk, user=assignments[1].user)
    rows = AgreementPair.objects.filter(topic=topic)
    assert rows.count() == 3  # alice-bob, gold vs alice, gold vs bob
    with django_capture_on_commit_callbacks(execute=True):
        assignment_reopen(assignment_id=assignments[1].pk)
    assert AgreementPair.objects.filter(topic=topic).count() == 1  # bob's work left the report


def test_the_report_reads_the_stored_rows(scico_project):
    """A row whose versions match is trusted as it is (here: one made wrong on purpose)."""
    same_report(scico_project)
    rows = list(AgreementPair.objects.filter(topic__project=scico_project, key__kind="annotator"))
    rows[0].counts = rows[1].counts
    rows[0].save()
    assert (
        project_agreement(scico_project)["topics"]
        != (project_agreement_scratch(scico_project)["topics"])
    )
