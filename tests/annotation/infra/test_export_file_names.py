"""Exports name files after data (usernames, topic ids, the project's name): every name is made
a plain file name that stays inside the export folder, whatever the data holds."""

import io
import zipfile

import pytest
from django.contrib.auth import get_user_model

from annotation.infra.file_names import path_inside, safe_file_name, unique_file_names
from annotation.models import Topic
from annotation.services.exports import annotations_export
from annotation.services.operations import annotation_operation_apply
from tests.factories import ProjectFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db

HOSTILE_NAMES = ["../escaped", "..", ".", "a/../../b", "..\\win", "/abs", "", ".hidden", " .. "]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_safe_file_name_is_one_plain_name(tmp_path, name):
    safe = safe_file_name(name)

    assert safe
    assert "/" not in safe
    assert "\\" not in safe
    assert not safe.startswith(".")
    assert path_inside(tmp_path, safe).parent == tmp_path


def test_names_that_clash_once_made_safe_stay_distinct():
    names = unique_file_names(["a/b", "a_b", "A_B"])

    assert names == {"a/b": "a_b", "a_b": "a_b-2", "A_B": "A_B-3"}


def test_a_path_leaving_its_folder_is_refused(tmp_path):
    from annotation.errors import ExportRefused

    with pytest.raises(ExportRefused):
        path_inside(tmp_path, "../x")


def annotated_by(username: str, project, external_id: str = "t1"):
    """A user (created in the database as it is: older data, other tools) with one started
    annotation of a topic of `project`."""
    user = get_user_model().objects.create(username=username)
    topic = make_topic(project, external_id=external_id)
    _, annotation = assign(topic, user)
    annotation_operation_apply(
        annotation_id=annotation.pk,
        user=user,
        payload={"op": "assign", "mention": mention_ids(topic)[0], "cluster": None},
        expected_version=0,
    )
    return user


def files_under(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("format", ["scico", "brat", "corefi"])
def test_per_user_exports_stay_inside_the_folder_whatever_the_usernames(tmp_path, format):
    project = ProjectFactory()
    annotated_by("../../outside", project, "t1")
    annotated_by("..", project, "t2")
    out = tmp_path / "deep" / "out"

    annotations_export(project=project, format=format, out=out, source="all")

    assert [p for p in tmp_path.rglob("*") if not p.resolve().is_relative_to(out)] == [
        tmp_path / "deep"
    ]
    outputs = {p.split("/")[0].removesuffix(".jsonl") for p in files_under(out)}
    assert outputs == {"_.", "_._.._outside"}


def test_folder_exports_name_topic_files_safely(tmp_path):
    project = ProjectFactory()
    annotated_by("alice", project, "../../../topic-escape")
    out = tmp_path / "deep" / "out"

    annotations_export(project=project, format="corefi", out=out, source="alice")

    assert files_under(out) == ["_._.._.._topic-escape.json"]
    assert Topic.objects.filter(external_id="../../../topic-escape").exists()  # data unchanged


def test_the_download_of_a_project_with_a_hostile_name_is_named_safely(admin_client):
    project = ProjectFactory(name='../../evil"\r\nX-Injected: 1')
    annotated_by("../bob", project)

    one_file = admin_client.get(f"/api/projects/{project.pk}/export/?format=scico&source=../bob")
    zipped = admin_client.get(f"/api/projects/{project.pk}/export/?format=scico&source=all")

    assert one_file.status_code == 200
    assert "X-Injected" not in one_file
    assert zipped.status_code == 200
    assert "X-Injected" not in zipped
    assert "/" not in one_file["Content-Disposition"].split("filename")[1]
    archive = zipfile.ZipFile(io.BytesIO(zipped.content))
    assert archive.namelist() == ["_._bob.jsonl"]
