"""Importing topics: everything validated first, nothing written on refusal, gold logged."""

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from annotation.domain.history import replay
from annotation.domain.invariants import invariant_violations
from annotation.errors import ImportRefused
from annotation.models import (
    Annotation,
    Cluster,
    ClusterMember,
    Document,
    HierarchyEdge,
    Mention,
    Operation,
    Topic,
)
from annotation.selectors.state import annotation_initial_state, annotation_state_load
from annotation.selectors.workspace import import_marks
from annotation.services.exports import annotations_export
from annotation.services.imports.topics import topics_import
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[4]
from tests.formats import scico_line
from tests.paths import DEMO
from tests.paths import SHARED_DATA as CORPUS_DIR


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def nothing_written():
    return not (
        Topic.objects.exists()
        or Document.objects.exists()
        or Mention.objects.exists()
        or Annotation.objects.exists()
        or Operation.objects.exists()
    )


def test_a_scico_file_creates_topics_documents_mentions_and_a_gold_annotation():
    project = ProjectFactory()

    result = topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")

    assert result.topics == ["9001", "9002", "9003", "9004", "9005", "9006"]
    assert (result.mentions, result.gold) == (261, 6)
    assert Document.objects.filter(topic__project=project).count() == 112
    gold = Annotation.objects.filter(topic__project=project, kind="gold", assignment__isnull=True)
    assert gold.count() == 6
    assert Cluster.objects.filter(annotation__in=gold).count() == 119
    assert ClusterMember.objects.filter(annotation__in=gold).count() == 261
    assert HierarchyEdge.objects.filter(annotation__in=gold).count() == 79


def test_documents_keep_their_doc_id_sentences_metadata_and_token_count():
    project = ProjectFactory()
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")

    document = Document.objects.get(topic__external_id="9001", position=0)

    assert document.doc_id == "900101"
    assert document.token_count == len(document.tokens)
    assert document.sentences[0] == [0, 14]
    assert document.metadata["BookTitle"] == "ACL"


@pytest.mark.parametrize(
    ("format", "path"),
    [
        ("scico", DEMO / "scico_demo.jsonl"),
        ("chemu", DEMO / "chemu_demo.jsonlines"),
        ("brat", ROOT / "fixtures" / "formats" / "brat"),
        ("corefi", CORPUS_DIR / "corefi"),
    ],
)
def test_the_imported_gold_is_one_import_operation_whose_log_replays_to_the_stored_state(
    format, path
):
    project = ProjectFactory(hierarchy=True, anaphora=True)
    topics_import(project=project, path=path, format=format)

    for annotation in Annotation.objects.filter(topic__project=project):
        log = list(Operation.objects.filter(annotation=annotation).order_by("version"))
        assert [(o.kind, o.name, o.version) for o in log] == [("do", "import", 1)]
        assert annotation.version == 1
        replayed = replay(annotation_initial_state(annotation), log)
        assert replayed.snapshot() == annotation_state_load(annotation).snapshot()


def test_a_cluster_without_a_label_in_the_file_is_labelled_with_its_first_mention(tmp_path):
    project = ProjectFactory()
    topics_import(
        project=project,
        path=write_lines(tmp_path / "labels.jsonl", [scico_line(1)]),
        format="scico",
    )

    assert sorted(Cluster.objects.values_list("label", flat=True)) == ["A", "CRF taggers"]


def test_every_corefi_example_imports_from_the_folder():
    project = ProjectFactory()

    result = topics_import(project=project, path=CORPUS_DIR / "corefi", format="corefi")

    assert len(result.topics) == 12
    assert result.skipped == []
    # (the annotation-mode files' seeds: tests/annotation/services/imports/test_corefi_seed.py)
    assert [w for w in map(str, result.warnings) if "(a seed), not as gold" not in w] == []
    assert Topic.objects.filter(project=project).count() == 12


def test_a_file_without_clusters_or_links_gets_no_gold_annotation(tmp_path):
    project = ProjectFactory()
    path = write_lines(
        tmp_path / "bare.jsonl", [scico_line(1, mentions=[[0, 2, 3], [1, 1, 2]], relations=[])]
    )

    result = topics_import(project=project, path=path, format="scico")

    assert (result.mentions, result.gold) == (2, 0)
    assert not Annotation.objects.exists()


def chemu_snippet(path: Path, **links) -> Path:
    tokens = ["The", "oil", "was", "heated", ";", "the", "oil", "gave", "the", "product", "."]
    path.write_text(json.dumps({"doc_key": "s1", "sentences": [tokens], **links}) + "\n")
    return path


def exported_line(project, tmp_path) -> str:
    out = tmp_path / "out.jsonlines"
    annotations_export(project=project, format="chemu", out=out, source="gold")
    return out.read_text()


def test_a_gold_link_whose_antecedent_comes_later_is_imported_as_released_and_marked(tmp_path):
    project = ProjectFactory(hierarchy=False, anaphora=True)
    path = chemu_snippet(tmp_path / "late.jsonlines", Coreference=[[[[0, 1]], [[5, 6]]]])

    result = topics_import(project=project, path=path, format="chemu")

    message = (
        "late.jsonlines: line 1, field Coreference[0]: the antecedent (tokens 5-6 'the oil') "
        "does not come before the anaphor (tokens 0-1 'The oil'); imported as released, but the "
        "workspace refuses such a link (rule order)"
    )
    assert [str(w) for w in result.warnings] == [message]
    gold = Annotation.objects.get()
    assert gold.links.count() == 1
    assert import_marks(gold) == [
        {
            "field": "Coreference[0]",
            "message": message.removeprefix("late.jsonlines: line 1, field Coreference[0]: "),
        }
    ]
    assert exported_line(project, tmp_path) == path.read_text()


def test_an_anaphor_with_two_transformed_antecedents_is_imported_and_marks_the_second_link(
    tmp_path,
):
    project = ProjectFactory(hierarchy=False, anaphora=True)
    path = chemu_snippet(
        tmp_path / "two.jsonlines", Transformed=[[[[5, 6]], [[0, 1]]], [[[5, 6]], [[3, 3]]]]
    )

    result = topics_import(project=project, path=path, format="chemu")

    assert [str(w) for w in result.warnings] == [
        (
            "two.jsonlines: line 1, field Transformed[1]: TRANSFORMED is one-to-one: the anaphor "
            "(tokens 5-6 'the oil') already has the TRANSFORMED antecedent (tokens 0-1 'The oil') "
            "of Transformed[0]; imported as released, but the workspace refuses such a link "
            "(rule transformed_one_to_one)"
        )
    ]
    gold = Annotation.objects.get()
    assert gold.links.count() == 2
    assert [m["field"] for m in import_marks(gold)] == ["Transformed[1]"]
    assert exported_line(project, tmp_path) == path.read_text()


def test_a_link_of_a_mention_to_itself_and_a_repeat_are_held_and_written_back_in_place(
    tmp_path,
):
    project = ProjectFactory(hierarchy=False, anaphora=True)
    path = chemu_snippet(
        tmp_path / "two.jsonlines",
        Coreference=[[[[5, 6]], [[5, 6]]], [[[5, 6]], [[0, 1]]]],
        Transformed=[[[[8, 9]], [[0, 1]]], [[[8, 9]], [[0, 1]]]],
    )

    result = topics_import(project=project, path=path, format="chemu")

    assert result.skipped == []
    assert [m["field"] for m in import_marks(Annotation.objects.get())] == [
        "Coreference[0]",
        "Transformed[1]",
    ]
    gold = Annotation.objects.get()
    assert gold.links.count() == 2  # the database holds no self link and each link once
    assert invariant_violations(annotation_state_load(gold)) == []
    assert exported_line(project, tmp_path) == path.read_text()


def test_a_brat_relation_the_workspace_refuses_is_refused_naming_file_relation_and_argument(
    tmp_path,
):
    (tmp_path / "doc.txt").write_text("The oil was heated ; the oil gave the product .\n")
    (tmp_path / "doc.ann").write_text(
        "T1\tMention 0 7\tThe oil\nT2\tMention 21 28\tthe oil\nT3\tMention 34 45\tthe product\n"
        "R1\tTransformed Arg1:T2 Arg2:T1\nR2\tTransformed Arg1:T3 Arg2:T1\n"
    )

    with pytest.raises(ImportRefused) as refused:
        topics_import(project=ProjectFactory(anaphora=True), path=tmp_path, format="brat")

    assert refused.value.errors == [
        (
            "doc.ann: R2, field Arg2: TRANSFORMED is one-to-one: the antecedent (T1 'The oil') "
            "already has the TRANSFORMED anaphor (T2 'the oil') of R1; the workspace refuses such "
            "a link (rule transformed_one_to_one)"
        )
    ]
    assert nothing_written()


@pytest.mark.parametrize(
    ("case", "lines", "expected"),
    [
        (
            "malformed JSON",
            [scico_line(1), '{"id": 2, "tokens": ['],
            [("bad.jsonl", 2, None, "malformed JSON")],
        ),
        (
            "offset out of range",
            [scico_line(1), scico_line(2, mentions=[[0, 2, 9, 0], [1, 0, 0, 1]], relations=[])],
            [("bad.jsonl", 2, "mentions[0][2]", "beyond the paragraph")],
        ),
        (
            "unknown cluster id",
            [scico_line(1), scico_line(2, relations=[[1, 7]])],
            [("bad.jsonl", 2, "relations[0][1]", "cluster 7 is not the cluster of any mention")],
        ),
        (
            "empty side",
            [scico_line(1), scico_line(2, relations=[[None, 0]])],
            [("bad.jsonl", 2, "relations[0]", "side is empty")],
        ),
        (
            "cycle in the gold relations",
            [scico_line(1), scico_line(2, relations=[[1, 0], [0, 1]])],
            [("bad.jsonl", 2, "relations", "cycle in the hierarchy")],
        ),
        (
            "duplicate topic id in the file",
            [scico_line(1), scico_line(1)],
            [("bad.jsonl", 2, "id", "already used on line 1")],
        ),
    ],
)
def test_bad_input_is_refused_with_file_line_and_field_and_nothing_is_written(
    tmp_path, case, lines, expected
):
    project = ProjectFactory()
    path = write_lines(tmp_path / "bad.jsonl", lines)

    with pytest.raises(ImportRefused) as refused:
        topics_import(project=project, path=path, format="scico")

    for (file, line, field, message), error in zip(expected, refused.value.errors, strict=True):
        where = f"{file}: line {line}" + (f", field {field}" if field else "")
        assert error.startswith(where)
        assert message in error
    assert nothing_written()


def test_a_chemu_link_with_an_empty_side_is_kept_as_released_naming_line_type_index_and_side(
    tmp_path,
):
    project = ProjectFactory(hierarchy=False, anaphora=True)
    path = tmp_path / "empty.jsonlines"
    path.write_text(
        json.dumps(
            {"doc_key": "s1", "sentences": [["a", "b", "c", "d"]], "Coreference": [[[], [[0, 1]]]]}
        )
        + "\n"
    )

    result = topics_import(project=project, path=path, format="chemu")

    assert [str(w) for w in result.warnings] == [
        (
            "empty.jsonlines: line 1, field Coreference[0][0]: the anaphor is empty "
            "(antecedent [[0, 1]] 'a b'); kept as released, not a link of the workspace"
        )
    ]
    gold = Annotation.objects.get()
    assert gold.links.count() == 0
    assert [m["field"] for m in import_marks(gold)] == ["Coreference[0][0]"]
    assert exported_line(project, tmp_path) == path.read_text()


def test_a_topic_id_already_in_the_project_is_refused_naming_file_line_and_field(tmp_path):
    project = ProjectFactory()
    topics_import(
        project=project, path=write_lines(tmp_path / "first.jsonl", [scico_line(1)]), format="scico"
    )
    path = write_lines(tmp_path / "second.jsonl", [scico_line(2), scico_line(1)])

    with pytest.raises(ImportRefused) as refused:
        topics_import(project=project, path=path, format="scico")

    assert refused.value.errors == [
        f"second.jsonl: line 2, field id: topic 1 is already in project '{project.name}'"
    ]
    assert list(Topic.objects.values_list("external_id", flat=True)) == ["1"]


def test_the_same_topic_id_may_be_used_in_another_project(tmp_path):
    path = write_lines(tmp_path / "t.jsonl", [scico_line(1)])
    topics_import(project=ProjectFactory(), path=path, format="scico")

    result = topics_import(project=ProjectFactory(), path=path, format="scico")

    assert result.topics == ["1"]


def test_skip_invalid_imports_the_rest_and_lists_every_skipped_record(tmp_path):
    project = ProjectFactory()
    topics_import(
        project=project, path=write_lines(tmp_path / "first.jsonl", [scico_line(1)]), format="scico"
    )
    path = write_lines(
        tmp_path / "mixed.jsonl", [scico_line(1), scico_line(2), "{oops", scico_line(3)]
    )

    result = topics_import(project=project, path=path, format="scico", skip_invalid=True)

    assert result.topics == ["2", "3"]
    assert sorted(s.record for s in result.skipped) == [1, 3]
    lines = result.lines()
    assert any(
        "mixed.jsonl: line 1, field id: topic 1 is already in project" in line for line in lines
    )
    assert any("mixed.jsonl: line 3: malformed JSON" in line for line in lines)
    assert list(Topic.objects.order_by("position").values_list("external_id", flat=True)) == [
        "1",
        "2",
        "3",
    ]


def test_a_corefi_folder_declaring_one_topic_in_two_files_is_refused_naming_both_files(tmp_path):
    source = json.loads((CORPUS_DIR / "corefi" / "trial_hmm.json").read_text())
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps({**source, "id": "same"}))

    with pytest.raises(ImportRefused) as refused:
        topics_import(project=ProjectFactory(), path=tmp_path, format="corefi")

    assert [e.split(":")[0] for e in refused.value.errors] == ["a.json", "b.json"]
    assert all(
        "field id: topic same is declared by several files" in e for e in refused.value.errors
    )
    assert nothing_written()


def test_a_file_above_the_upload_limit_is_refused_before_it_is_read(tmp_path, settings):
    settings.MAX_UPLOAD_BYTES = 100
    path = write_lines(tmp_path / "big.jsonl", [scico_line(1)])

    with pytest.raises(ImportRefused, match="above the 100-byte limit"):
        topics_import(project=ProjectFactory(), path=path, format="scico")

    assert nothing_written()


def test_an_uploaded_file_imports_like_a_path():
    upload = SimpleUploadedFile("upload.jsonl", (scico_line(5) + "\n").encode())

    result = topics_import(project=ProjectFactory(), path=upload, format="scico")

    assert result.file == "upload.jsonl"
    assert result.topics == ["5"]


def test_links_imported_into_a_project_without_the_anaphora_scheme_are_kept_with_a_warning():
    project = ProjectFactory(hierarchy=True, anaphora=False)

    result = topics_import(project=project, path=DEMO / "chemu_demo.jsonlines", format="chemu")

    assert any("does not use the anaphora scheme" in str(w) for w in result.warnings)
    assert Annotation.objects.filter(topic__project=project).count() == 8
