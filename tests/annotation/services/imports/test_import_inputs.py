"""What an import accepts as input: folders and zips at any depth, no archive inside an archive,
no empty input, no topic without tokens, at most IMPORT_MAX_TOPICS topics."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from annotation.errors import ImportRefused
from annotation.models import Project, Topic
from annotation.services.imports.topics import topics_import
from annotation.services.imports.upload import topics_upload_import
from tests.factories import ProjectFactory
from tests.formats import scico_line

pytestmark = pytest.mark.django_db


def zipped(files: dict[str, bytes | str], name: str = "upload.zip") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path, content in files.items():
            archive.writestr(path, content)
    return SimpleUploadedFile(name, buffer.getvalue())


def upload(project: Project, file, format: str = "scico", **options):
    return topics_upload_import(project=project, upload=file, format=format, **options)


def test_a_scico_zip_with_folders_inside_reads_the_files_in_them():
    project = ProjectFactory()
    archive = zipped(
        {
            "scico/train/a.jsonl": scico_line(1) + "\n",
            "scico/dev/b.jsonl": scico_line(2) + "\n",
            "scico/README.md": "notes",
            "__MACOSX/scico/._a.jsonl": "junk",
        }
    )

    result = upload(project, archive)

    assert result.file == "upload.zip"
    assert sorted(result.topics) == ["1", "2"]
    assert [str(w) for w in result.warnings] == ["README.md: not a .jsonl or .json file; not read"]


def test_a_topic_in_two_files_of_a_zip_is_refused_naming_both_files_and_lines():
    archive = zipped({"x/a.jsonl": scico_line(1) + "\n", "y/b.jsonl": scico_line(1) + "\n"})

    with pytest.raises(ImportRefused) as refused:
        upload(ProjectFactory(), archive)

    assert refused.value.errors == [
        "a.jsonl: line 1, field id: topic 1 is declared by several files",
        "b.jsonl: line 1, field id: topic 1 is declared by several files",
    ]


def test_a_zip_inside_the_zip_is_refused_naming_it():
    inner = zipped({"a.jsonl": scico_line(1) + "\n"}).read()
    archive = zipped({"data/inner.zip": inner, "b.jsonl": scico_line(2) + "\n"})

    with pytest.raises(ImportRefused, match="holds another archive") as refused:
        upload(ProjectFactory(), archive)

    assert refused.value.errors == ["upload.zip: data/inner.zip: an archive inside the archive"]
    assert not Topic.objects.exists()


def test_a_zip_with_no_file_of_the_format_is_refused():
    with pytest.raises(ImportRefused, match=r"upload.zip holds no \.jsonlines or \.jsonl file"):
        upload(ProjectFactory(), zipped({"notes.txt": "hello"}), format="chemu")


def test_a_chemu_zip_applies_the_link_rules_naming_the_file_inside():
    line = {
        "doc_key": "s1",
        "sentences": [["the", "oil", "was", "the", "product"]],
        "Coreference": [[[[0, 1]], [[3, 4]]]],
    }
    archive = zipped({"chemu/late.jsonlines": json.dumps(line) + "\n"})

    result = upload(ProjectFactory(anaphora=True), archive, format="chemu")

    # Official data is imported as released; the link the rules refuse is listed and marked.
    (warning,) = [str(w) for w in result.warnings]
    assert warning.startswith("late.jsonlines: line 1, field Coreference[0]: ")
    assert "(rule order)" in warning


@pytest.mark.parametrize("content", ["", "\n\n"])
def test_an_empty_file_is_refused_saying_it_holds_no_topic(tmp_path, content):
    path = tmp_path / "empty.jsonl"
    path.write_text(content)

    with pytest.raises(ImportRefused, match="empty.jsonl holds no topic; nothing was imported"):
        topics_import(project=ProjectFactory(), path=path, format="scico")


def test_an_import_whose_every_record_is_skipped_is_refused_listing_them(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text("{oops\n[1]\n")

    with pytest.raises(ImportRefused, match="every topic was skipped") as refused:
        topics_import(project=ProjectFactory(), path=path, format="scico", skip_invalid=True)

    assert len(refused.value.errors) == 2
    assert refused.value.errors[0].startswith("skipped the record: bad.jsonl: line 1")


def test_a_topic_without_tokens_is_refused_naming_file_line_and_field(tmp_path):
    path = tmp_path / "t.jsonlines"
    path.write_text(
        json.dumps({"doc_key": "a", "sentences": [["x"]]})
        + "\n"
        + json.dumps({"doc_key": "b", "sentences": []})
        + "\n"
    )

    with pytest.raises(ImportRefused) as refused:
        topics_import(project=ProjectFactory(), path=path, format="chemu")

    assert refused.value.errors == [
        "t.jsonlines: line 2, field sentences: topic b has no tokens: there is nothing to annotate"
    ]


def test_empty_brat_documents_are_refused_or_skipped_each_named(tmp_path):
    (tmp_path / "full.txt").write_text("The oil was heated .\n")
    for stem in ("e1", "e2"):
        (tmp_path / f"{stem}.txt").write_text("")
    project = ProjectFactory(anaphora=True)

    with pytest.raises(ImportRefused) as refused:
        topics_import(project=project, path=tmp_path, format="brat")
    result = topics_import(project=project, path=tmp_path, format="brat", skip_invalid=True)

    assert [e.split(":")[0] for e in refused.value.errors] == ["e1.txt", "e2.txt"]
    assert result.topics == ["full"]
    assert len(result.skipped) == 2


def test_twenty_thousand_empty_documents_are_refused_before_they_are_read(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for number in range(20_000):
        (folder / f"{number}.txt").touch()

    with pytest.raises(ImportRefused, match="20,000 topics, above the 5,000-topic limit"):
        topics_import(project=ProjectFactory(), path=folder, format="brat", skip_invalid=True)

    assert not Topic.objects.exists()


def test_a_file_with_more_topics_than_the_limit_is_refused(tmp_path, settings):
    settings.IMPORT_MAX_TOPICS = 2
    path = tmp_path / "three.jsonl"
    path.write_text("".join(scico_line(n) + "\n" for n in range(3)))

    with pytest.raises(ImportRefused, match="IMPORT_MAX_TOPICS"):
        topics_import(project=ProjectFactory(), path=path, format="scico")

    assert not Topic.objects.exists()


def test_a_zip_path_imports_like_an_uploaded_zip(tmp_path):
    path = tmp_path / "topics.zip"
    path.write_bytes(zipped({"in/a.jsonl": scico_line(7) + "\n"}).read())

    result = topics_import(project=ProjectFactory(), path=Path(path), format="scico")

    assert (result.file, result.topics) == ("topics.zip", ["7"])
