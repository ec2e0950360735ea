"""A raw import: a file's text (and, if asked, its mentions) as topics, without its gold, for
every format that has a reader."""

from __future__ import annotations

import io
import itertools

import pytest

from annotation.models import (
    Annotation,
    Cluster,
    ClusterMember,
    Document,
    Mention,
    RelationLink,
    Topic,
)
from annotation.services.assignments import assignment_create
from annotation.services.imports.topics import topics_import
from corefscore.formats import read
from tests.factories import ProjectFactory, UserFactory
from tests.paths import CHEMU_DEMO, CHEMU_TRAIN, COREFI_DATA, INCEPTION_SUITE, REPO, SCICO_DEMO

pytestmark = pytest.mark.django_db

SOURCES = [
    ("scico", SCICO_DEMO),
    ("chemu", CHEMU_DEMO),
    ("corefi", COREFI_DATA),  # annotation-mode files (seeds) and onboarding files (gold)
    ("brat", REPO / "fixtures" / "formats" / "brat"),
    ("webanno-tsv", INCEPTION_SUITE / "testStackedChain" / "reference.tsv"),
    ("uima-xmi", INCEPTION_SUITE / "testStackedChain" / "reference.xmi"),
]


def nothing_annotated(project) -> bool:
    return not (
        Annotation.objects.filter(topic__project=project).exists()
        or Cluster.objects.filter(annotation__topic__project=project).exists()
        or RelationLink.objects.filter(annotation__topic__project=project).exists()
    )


@pytest.mark.parametrize(("format", "path"), SOURCES)
def test_text_only_keeps_every_document_and_token_and_nothing_else(format, path):
    project = ProjectFactory(hierarchy=True, anaphora=True)
    file = read(format, path, **({"link_rules": True} if format in ("chemu", "brat") else {}))

    result = topics_import(project=project, path=path, format=format, raw="text")

    assert (result.gold, result.seeded, result.mentions) == (0, 0, 0)
    assert nothing_annotated(project)
    assert not Mention.objects.filter(topic__project=project).exists()
    tokens = list(
        Document.objects.filter(topic__project=project)
        .order_by("topic__position", "position")
        .values_list("tokens", flat=True)
    )
    assert tokens == [d.tokens for t in file.topics for d in t.documents]


@pytest.mark.parametrize(("format", "path"), SOURCES)
def test_text_and_mentions_keeps_the_mentions_without_clusters_or_links(format, path):
    project = ProjectFactory(hierarchy=True, anaphora=True)
    file = read(format, path, **({"link_rules": True} if format in ("chemu", "brat") else {}))
    assert any(t.has_annotation for t in file.topics)  # there was gold to leave out

    result = topics_import(project=project, path=path, format=format, raw="mentions")

    assert (result.gold, result.seeded) == (0, 0)
    assert result.mentions == sum(len(t.mentions) for t in file.topics)
    assert nothing_annotated(project)
    assert not Topic.objects.filter(project=project, metadata__has_key="seed").exists()
    # An annotator starts from nothing: no seed, no gold cluster.
    topic = Topic.objects.filter(project=project).order_by("position").first()
    assignment = assignment_create(topic=topic, user=UserFactory())
    assert assignment.annotation.version == 0
    assert not ClusterMember.objects.filter(annotation=assignment.annotation).exists()


def test_the_fields_that_record_a_files_answers_are_left_out_of_the_topic():
    project = ProjectFactory()

    topics_import(project=project, path=COREFI_DATA / "guided_mt.json", format="corefi", raw="text")

    extra = Topic.objects.get(project=project).metadata["corefi"]["extra"]
    assert "goldMentions" not in extra
    assert "selectedCluster" not in extra
    assert extra["mode"] == "onboarding"  # the rest of the task stays


def upload(client, project, path, format, **extra):
    file = io.BytesIO(path.read_bytes())
    file.name = path.name
    return client.post(
        f"/api/projects/{project.pk}/imports/",
        {"file": file, "format": format, **extra},
        format="multipart",
    )


def chemu_snippets(tmp_path, count: int):
    path = tmp_path / "snippets.jsonlines"
    with CHEMU_TRAIN.open(encoding="utf-8") as lines:
        path.write_text("".join(itertools.islice(lines, count)), encoding="utf-8")
    return path


def test_chemu_snippets_upload_as_raw_topics_for_the_labs_own_annotation(admin_client, tmp_path):
    project = ProjectFactory(hierarchy=False, anaphora=True)
    path = chemu_snippets(tmp_path, 20)
    entities = sum(len(t.mentions) for t in read("chemu", path).topics)

    response = upload(admin_client, project, path, "chemu", raw="mentions")

    assert response.status_code == 201, response.content
    body = response.json()
    assert (len(body["topics"]), body["mentions"], body["gold"], body["seeded"]) == (
        20,
        entities,
        0,
        0,
    )
    assert nothing_annotated(project)  # the snippets' links stayed out


def test_an_unknown_raw_level_is_a_clear_400_and_imports_nothing(admin_client):
    project = ProjectFactory()

    response = upload(admin_client, project, SCICO_DEMO, "scico", raw="links")

    assert response.status_code == 400
    assert "raw" in response.json()["fields"]
    assert not Topic.objects.filter(project=project).exists()
