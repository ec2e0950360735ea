"""import -> export -> import gives the same annotation, for every format."""

import json
from pathlib import Path

import pytest

from annotation.models import Annotation, Topic
from annotation.selectors.topic_data import annotations_topic_data
from annotation.services.assignments import assignments_bulk_create
from annotation.services.exports import annotations_export
from annotation.services.imports.topics import topics_import
from corefscore.formats import read, write
from corefscore.formats.corefi import is_seed
from tests.factories import ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[4]
from tests.paths import DEMO
from tests.paths import SHARED_DATA as DATA


def gold(project):
    annotations = list(
        Annotation.objects.filter(topic__project=project, kind="gold").order_by("topic__position")
    )
    data = annotations_topic_data(annotations)
    return [data[a.pk] for a in annotations]


def round_trip(format, path, out, *, skip_invalid=False, **scheme):
    first, second = ProjectFactory(**scheme), ProjectFactory(**scheme)
    topics_import(project=first, path=path, format=format, skip_invalid=skip_invalid)
    annotations_export(project=first, format=format, out=out)
    topics_import(project=second, path=out, format=format)
    return first, second


@pytest.mark.parametrize(
    ("format", "path", "out", "scheme"),
    [
        ("scico", DEMO / "scico_demo.jsonl", "out.jsonl", {}),
        ("scico", DEMO / "scico_demo_annotator_a.jsonl", "out.jsonl", {}),
        # (a CoRefi file whose gold is every mention's cluster; seeds round-trip through an
        # annotator's export: test_every_corefi_example_exports_json_equal)
        ("corefi", DATA / "corefi" / "guided_mt.json", "out", {}),
        (
            "chemu",
            DEMO / "chemu_demo.jsonlines",
            "out.jsonlines",
            {"hierarchy": False, "anaphora": True},
        ),
        ("brat", ROOT / "fixtures" / "formats" / "brat", "out", {"anaphora": True}),
    ],
)
def test_import_export_import_gives_the_same_topics_as_the_file(
    tmp_path, format, path, out, scheme
):
    first, second = round_trip(format, path, tmp_path / out, **scheme)

    assert gold(first) == read(format, path).topics
    assert gold(second) == gold(first)


def test_the_whole_chemu_training_file_survives_a_round_trip(tmp_path):
    path = DATA / "chemu-ref" / "train.english.jsonlines"
    first, second = round_trip(
        "chemu", path, tmp_path / "out.jsonlines", hierarchy=False, anaphora=True
    )

    # Every link as released; the held entries (empty sides, repeats) ride with the gold.
    expected = read("chemu", path, link_rules=True).topics
    assert len(expected) == 900
    assert gold(first) == expected
    assert gold(second) == expected


def test_a_scico_export_is_json_equal_to_the_imported_file(tmp_path):
    project = ProjectFactory()
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")

    annotations_export(project=project, format="scico", out=tmp_path / "out.jsonl")

    lines = [(DEMO / "scico_demo.jsonl").read_text(), (tmp_path / "out.jsonl").read_text()]
    original, exported = ([json.loads(line) for line in text.splitlines()] for text in lines)
    assert exported == original


def test_every_corefi_example_exports_json_equal(tmp_path):
    """Gold files from the gold; annotation-mode files (their cluster ids a seed) from an
    annotator's annotation, which starts from the seed."""
    project = ProjectFactory()
    topics_import(project=project, path=DATA / "corefi", format="corefi")
    assignments_bulk_create(
        topics=list(Topic.objects.filter(project=project)), users=[UserFactory(username="ann")]
    )

    annotations_export(project=project, format="corefi", out=tmp_path / "gold")
    annotations_export(project=project, format="corefi", out=tmp_path / "ann", source="ann")

    gold_files = {p.name for p in (tmp_path / "gold").iterdir()}
    for path in sorted((DATA / "corefi").glob("*.json")):
        topic = read("corefi", path).topics[0]
        folder = "ann" if is_seed(topic) else "gold"
        assert json.loads((tmp_path / folder / f"{topic.external_id}.json").read_text()) == (
            json.loads(path.read_text())
        ), path.name
    assert len(gold_files) == 3


def test_chemu_gold_exported_as_brat_imports_with_the_same_mentions_and_links(tmp_path):
    chemu, brat = ProjectFactory(hierarchy=False, anaphora=True), ProjectFactory(anaphora=True)
    topics_import(project=chemu, path=DEMO / "chemu_demo.jsonlines", format="chemu")
    annotations_export(project=chemu, format="brat", out=tmp_path)

    topics_import(project=brat, path=tmp_path, format="brat")

    for before, after in zip(gold(chemu), gold(brat), strict=True):
        assert after.documents[0].tokens == before.documents[0].tokens
        assert after.documents[0].sentences == before.documents[0].sentences
        assert [m.key for m in after.mentions] == [m.key for m in before.mentions]
        assert after.links == before.links


def test_a_conll_export_is_what_the_conll_writer_gives_for_the_file(tmp_path):
    project = ProjectFactory()
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")

    annotations_export(project=project, format="conll", out=tmp_path / "db.conll")

    write("conll", read("scico", DEMO / "scico_demo.jsonl").topics, tmp_path / "file.conll")
    assert (tmp_path / "db.conll").read_text() == (tmp_path / "file.conll").read_text()
