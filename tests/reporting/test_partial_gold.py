"""A gold that clusters only some of its topics' mentions is named as such beside every figure
built on it: the agreement report's annotator-vs-gold section and the Models page's gold
choices, and the release's datasheet (a brat file whose coreference sets hold 2 of its 5
entities)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from annotation.models import Topic
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.imports.annotation import annotation_import_for_assignment
from annotation.services.imports.topics import topics_import
from corefscore.formats import read
from tests.factories import ProjectFactory, UserFactory
from tests.paths import COREFI_DATA, REPO, SCICO_DEMO

pytestmark = pytest.mark.django_db

BRAT = REPO / "fixtures" / "formats" / "brat"


def submitted_singletons(project, username: str) -> None:
    """An annotator's submitted work: every mention of each topic a cluster of its own."""
    user = UserFactory(username=username)
    for topic in Topic.objects.filter(project=project):
        file = read("brat", BRAT, link_rules=True).topics[0]
        for k, mention in enumerate(file.mentions):
            mention.cluster = f"s{k}"
        file.links, file.relations, file.clusters = [], [], []
        assignment = assignment_create(topic=topic, user=user)
        annotation_import_for_assignment(assignment=assignment, topic=file)
        assignment_submit(assignment_id=assignment.pk, user=user)


def test_the_agreement_report_says_how_much_of_the_mentions_the_gold_covers(admin_client):
    project = ProjectFactory(hierarchy=True, anaphora=True)
    topics_import(project=project, path=BRAT, format="brat")
    submitted_singletons(project, "alice")

    response = admin_client.get(f"/api/projects/{project.pk}/agreement/")

    assert response.status_code == 200, response.content
    section = response.json()["vs_gold"]
    assert [a["annotator"] for a in section["annotators"]] == ["alice"]
    assert section["gold_coverage"] == {
        "covered": 2,
        "mentions": 5,
        "topics": 1,
        "partial_topics": 1,
    }


def test_a_gold_that_clusters_every_mention_has_no_coverage_note(admin_client):
    project = ProjectFactory()
    topics_import(project=project, path=SCICO_DEMO, format="scico")

    section = admin_client.get(f"/api/projects/{project.pk}/agreement/").json()["vs_gold"]

    assert section["gold_topics"] == 6
    assert section["gold_coverage"] is None


def test_a_corefi_seed_is_no_gold_so_no_report_scores_against_it(admin_client):
    project = ProjectFactory()
    topics_import(project=project, path=COREFI_DATA / "trial_speech.json", format="corefi")

    section = admin_client.get(f"/api/projects/{project.pk}/agreement/").json()["vs_gold"]

    assert (section["gold_topics"], section["gold_coverage"]) == (0, None)


def test_the_models_page_gold_choices_carry_the_coverage(admin_client):
    project = ProjectFactory(hierarchy=True, anaphora=True)
    topics_import(project=project, path=BRAT, format="brat")

    response = admin_client.get(f"/api/projects/{project.pk}/model-evaluation-choices/")

    assert response.status_code == 200, response.content
    by_source = {g["gold_source"]: g for g in response.json()["gold_sources"]}
    assert by_source["imported"]["gold_coverage"] == {
        "covered": 2,
        "mentions": 5,
        "topics": 1,
        "partial_topics": 1,
    }
    assert by_source["adjudicated"]["gold_coverage"] is None  # no adjudication: nothing


def test_the_datasheet_says_how_much_of_the_mentions_the_gold_covers(tmp_path):
    project = ProjectFactory(name="Partial gold", hierarchy=True, anaphora=True)
    topics_import(project=project, path=BRAT, format="brat")
    submitted_singletons(project, "alice")

    call_command("dataset_release", "--project", project.name, str(tmp_path), stdout=StringIO())

    datasheet = (tmp_path / "DATASHEET.md").read_text()
    against = datasheet.split("## Annotators against the gold")[1].split("\n## ")[0]
    assert (
        "The gold covers 2 of 5 mentions (topics with mentions outside every cluster: 1 of 1)"
        in (" ".join(against.split()))
    )
