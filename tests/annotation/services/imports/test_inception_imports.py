"""INCEpTION's files through the app's import and export (real PostgreSQL): WebAnno TSV and
UIMA CAS XMI topics with their chains as gold, a guessed format, the hint when the chosen
format is wrong, and one annotator's INCEpTION files as their submitted annotation."""

from __future__ import annotations

import io
import shutil
import zipfile
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotation.domain.invariants import invariant_violations
from annotation.errors import ImportRefused
from annotation.models import Assignment, Topic
from annotation.selectors.state import annotation_state_load
from annotation.selectors.topic_data import annotation_topic_data
from annotation.services.imports.topics import topics_import
from corefscore.formats import read
from tests.corefscore.formats.test_formats_webanno_tsv import chains
from tests.factories import ProjectFactory
from tests.paths import CHEMU_DEMO, INCEPTION_SUITE, REPO

pytestmark = pytest.mark.django_db

CASES = ("testSimpleChain", "testMultiTokenChain")


def run(command, *args):
    out, err = StringIO(), StringIO()
    call_command(command, *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def tsv_folder(tmp_path):
    """The suite's chain cases as one folder of files named after their case."""
    folder = tmp_path / "inception"
    folder.mkdir()
    for case in CASES:
        shutil.copy(INCEPTION_SUITE / case / "reference.tsv", folder / f"{case}.tsv")
    return folder


def test_a_folder_of_tsv_files_imports_with_a_guessed_format_and_exports_the_same_chains(
    tsv_folder, tmp_path
):
    out, _ = run("import_topics", "--project", "Inc", "--create", str(tsv_folder))

    assert "format guessed: webanno-tsv (it holds .tsv files)" in out
    assert sorted(Topic.objects.values_list("external_id", flat=True)) == sorted(CASES)
    run("export_annotations", "--project", "Inc", "--format", "webanno-tsv", str(tmp_path / "out"))
    for case in CASES:
        written = (tmp_path / "out" / f"{case}.tsv").read_text()
        source = read("webanno-tsv", tsv_folder / f"{case}.tsv").topics[0]
        back = read("webanno-tsv", tmp_path / "out" / f"{case}.tsv").topics[0]
        assert chains(back) == chains(source)
        assert back.documents[0].tokens == source.documents[0].tokens
        assert written.startswith("#FORMAT=WebAnno TSV 3.3\n#T_CH=webanno.custom.SimpleLink|")


def test_an_xmi_file_imports_its_chains_as_gold(tmp_path):
    project = ProjectFactory(name="Xmi")
    source = tmp_path / "chain.xmi"
    shutil.copy(INCEPTION_SUITE / "testMultiTokenChain" / "reference.xmi", source)

    result = topics_import(project=project, path=source, format="uima-xmi")

    assert result.topics == ["chain"]
    assert result.gold == 1
    topic = Topic.objects.get(project=project)
    gold = annotation_topic_data(topic.annotations.get(kind="gold"))
    assert sorted(
        sorted(m.spans for m in gold.mentions if m.cluster == c.key) for c in gold.clusters
    ) == [[((0, 1),), ((2, 3),)]]


def test_a_chemu_file_imported_as_scico_is_refused_naming_what_it_looks_like():
    project = ProjectFactory(name="Wrong")
    with pytest.raises(ImportRefused) as refused:
        topics_import(project=project, path=CHEMU_DEMO, format="scico")
    assert "it looks like ChEMU-Ref jsonlines (--format chemu" in refused.value.message
    assert not Topic.objects.filter(project=project).exists()


def test_a_file_of_no_known_format_is_refused_with_auto(tmp_path):
    strange = tmp_path / "notes.txt"
    strange.write_text("just some words\n")
    with pytest.raises(CommandError, match="cannot be told from its contents"):
        run("import_topics", "--project", "P", "--create", str(strange))


def test_one_annotators_inception_files_become_their_submitted_annotation(tsv_folder):
    project = ProjectFactory(name="Team")
    topics_import(project=project, path=tsv_folder, format="webanno-tsv")

    out, _ = run(
        "import_annotations",
        "--project",
        "Team",
        "--user",
        "ann",
        "--format",
        "webanno-tsv",
        "--create-user",
        "--submit",
        str(tsv_folder),
    )

    assert "imported 2 topic(s) for ann into project 'Team', 2 submitted" in out
    for assignment in Assignment.objects.filter(user__username="ann").select_related("topic"):
        assert assignment.submitted_at is not None
        mine = annotation_topic_data(assignment.annotation)
        source = read("webanno-tsv", tsv_folder / f"{assignment.topic.external_id}.tsv")
        expected = source.topics[0]
        assert sorted(
            sorted(m.spans for m in mine.mentions if m.cluster == c.key) for c in mine.clusters
        ) == sorted(
            sorted(m.spans for m in expected.mentions if m.cluster == c.key)
            for c in expected.clusters
        )


def upload(client, project, name: str, content: bytes, format: str):
    file = io.BytesIO(content)
    file.name = name
    return client.post(
        f"/api/projects/{project.pk}/imports/", {"file": file, "format": format}, format="multipart"
    )


def test_the_app_imports_an_uploaded_tsv_and_downloads_it_back_as_a_zip(admin_client):
    project = ProjectFactory(name="Upload")
    content = (INCEPTION_SUITE / "testMultiTokenChain" / "reference.tsv").read_bytes()

    response = upload(admin_client, project, "chain.tsv", content, "webanno-tsv")

    assert response.status_code == 201, response.content
    assert response.json()["topics"] == ["chain"]
    assert response.json()["gold"] == 1
    download = admin_client.get(
        f"/api/projects/{project.pk}/export/?format=webanno-tsv&source=gold"
    )
    assert download.status_code == 200
    with zipfile.ZipFile(io.BytesIO(download.content)) as opened:
        assert opened.read("chain.tsv") == content


def test_an_upload_in_the_wrong_format_says_what_it_looks_like(admin_client):
    project = ProjectFactory(name="Wrong upload")

    response = upload(admin_client, project, "chemu.jsonl", CHEMU_DEMO.read_bytes(), "scico")

    assert response.status_code == 400
    assert "it looks like ChEMU-Ref jsonlines (--format chemu" in response.json()["message"]
    assert not Topic.objects.filter(project=project).exists()


def test_an_upload_with_format_auto_is_guessed_and_says_so(admin_client):
    project = ProjectFactory(name="Auto upload")
    content = (INCEPTION_SUITE / "testSimpleChain" / "reference.tsv").read_bytes()

    response = upload(admin_client, project, "simple.tsv", content, "auto")

    assert response.status_code == 201, response.content
    assert response.json()["warnings"][0] == (
        "simple.tsv: format guessed: webanno-tsv (its first line is #FORMAT=WebAnno TSV 3)"
    )
    assert Topic.objects.filter(project=project).count() == 1


def test_an_upload_of_no_known_format_with_auto_is_a_clear_400(admin_client):
    project = ProjectFactory(name="Unknown upload")

    response = upload(admin_client, project, "notes.txt", b"just words\n", "auto")

    assert response.status_code == 400
    assert "cannot be told from its contents" in response.json()["message"]
    assert not Topic.objects.filter(project=project).exists()


@pytest.mark.parametrize(
    "source",
    [
        REPO / "fixtures" / "formats" / "inception" / "stacked_chains.tsv",
        INCEPTION_SUITE / "testStackedChain" / "reference.tsv",
    ],
    ids=["own", "suite"],
)
def test_stacked_chains_import_as_two_mentions_on_one_span_and_download_back_the_same(
    admin_client, source
):
    project = ProjectFactory(name="Stacked")

    response = upload(admin_client, project, "stacked.tsv", source.read_bytes(), "webanno-tsv")

    assert response.status_code == 201, response.content
    gold = Topic.objects.get(project=project).annotations.get(kind="gold")
    state = annotation_state_load(gold)
    assert invariant_violations(state) == []
    shared = [ids for ids in state.mentions_at.values() if len(ids) > 1]
    assert shared, "a stacked span is two mentions"
    assert all(len({state.mention_cluster[m] for m in ids}) == len(ids) for ids in shared)
    download = admin_client.get(
        f"/api/projects/{project.pk}/export/?format=webanno-tsv&source=gold"
    )
    assert download.status_code == 200
    with zipfile.ZipFile(io.BytesIO(download.content)) as opened:
        assert opened.read("stacked.tsv") == source.read_bytes()
