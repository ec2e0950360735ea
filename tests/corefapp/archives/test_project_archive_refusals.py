"""Project archives refused: a name in use, another schema, a broken or hostile archive. Each
is refused with a message that says what and where, and nothing is written (every table has
the rows it had). The round trip between two instances is tests/integration's."""

from __future__ import annotations

import json
import tracemalloc
import zipfile
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import ForeignKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotation.models import Annotation, Operation, Project
from corefapp.archives.importer import project_import
from corefapp.archives.json_ids import ArchiveInvalid
from corefapp.archives.reader import MAX_LINE
from corefapp.archives.tables import TABLES
from tests.e2e.data import apply_ops
from tests.factories import ProjectFactory, UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db


def test_every_foreign_key_of_every_carried_table_is_remapped():
    for table in TABLES:
        keys = {f.attname for f in table.model._meta.concrete_fields if isinstance(f, ForeignKey)}
        assert keys == set(table.keys) | table.cleared, table.label


@pytest.fixture
def archive(tmp_path) -> Path:
    project = ProjectFactory(name="pilot")
    topic = make_topic(project)
    make_topic(project)  # a second topic, so a mention can be moved to another topic's document
    user = UserFactory(username="ann", is_staff=True)
    _, annotation = assign(topic, user)
    m = mention_ids(topic)
    first, second = apply_ops(
        annotation,
        user,
        [
            {"op": "assign", "mention": m[0], "cluster": None},
            {"op": "assign", "mention": m[1], "cluster": None},
        ],
    )
    apply_ops(
        annotation,
        user,
        [{"op": "merge", "source": second.created["cluster"], "target": first.created["cluster"]}],
    )
    path = tmp_path / "pilot.zip"
    call_command("export_project", "pilot", str(path))
    return path


def rows_everywhere() -> dict[str, int]:
    counts = {}
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names()):
            cursor.execute(f'SELECT count(*) FROM "{table}"')
            counts[table] = cursor.fetchone()[0]
    return counts


def rewritten(path: Path, target: Path, member: str, change) -> Path:
    """A copy of the archive whose `member` is `change(text)`."""
    with (
        zipfile.ZipFile(path) as source,
        zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as copy,
    ):
        for info in source.infolist():
            data = source.read(info.filename).decode()
            copy.writestr(info.filename, change(data) if info.filename == member else data)
    return target


def refused(path: Path, **options) -> str:
    before = rows_everywhere()
    with pytest.raises(ArchiveInvalid) as refusal:
        project_import(path=path, **options)
    assert rows_everywhere() == before
    return str(refusal.value)


def test_an_imported_project_gets_fresh_ids_everywhere_even_in_its_log(archive):
    old = Annotation.objects.get(topic__project__name="pilot")
    imported = project_import(path=archive, name="pilot copy")

    new = Annotation.objects.get(topic__project_id=imported.project_id)
    assert imported.users_matched == ["ann"]
    old_clusters = {
        e["cluster"] for op in old.operations.all() for e in op.effects if "cluster" in e
    }
    new_clusters = {
        e["cluster"] for op in new.operations.all() for e in op.effects if "cluster" in e
    }
    assert len(new_clusters) == len(old_clusters) == 2
    assert not new_clusters & old_clusters
    assert set(new.clusters.values_list("pk", flat=True)) <= new_clusters
    new_mentions = set(new.topic.mentions.values_list("pk", flat=True))
    payloads = [op.payload for op in new.operations.order_by("version")]
    assert {p["mention"] for p in payloads if "mention" in p} <= new_mentions


def test_a_name_in_use_is_refused_and_names_the_way_out(archive):
    message = refused(archive)
    assert "'pilot' exists here already" in message
    assert "--name" in message


def test_the_command_says_nothing_was_imported(archive):
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command("import_project", str(archive))


def test_a_member_naming_a_mention_outside_the_archive_is_refused(archive, tmp_path):
    def elsewhere(text: str) -> str:
        row = json.loads(text.splitlines()[0])
        row["mention_id"] = 10**9
        return json.dumps(row) + "\n" + "".join(line + "\n" for line in text.splitlines()[1:])

    broken = rewritten(archive, tmp_path / "b.zip", "annotation.clustermember.jsonl", elsewhere)
    message = refused(broken, name="other")
    assert "annotation.clustermember.jsonl line 1, mention_id" in message
    assert "not in the archive" in message


def test_an_id_that_is_not_a_number_inside_the_log_is_refused(archive, tmp_path):
    def text_id(text: str) -> str:
        rows = [json.loads(line) for line in text.splitlines()]
        rows[0]["effects"][0]["cluster"] = "1; DROP TABLE annotation_project"
        return "".join(json.dumps(row) + "\n" for row in rows)

    broken = rewritten(archive, tmp_path / "b.zip", "annotation.operation.jsonl", text_id)
    assert "a cluster id must be a whole number" in refused(broken, name="other")


def test_rows_the_database_refuses_write_nothing_not_even_the_users(archive, tmp_path):
    """Each row is valid alone, two together break a constraint: the transaction is undone,
    with the user it had created."""

    def twice(text: str) -> str:
        rows = [json.loads(line) for line in text.splitlines()]
        rows.append({**rows[0], "id": rows[0]["id"] + 10**6})
        return "".join(json.dumps(row) + "\n" for row in rows)

    def renamed(text: str) -> str:
        return text.replace('"ann"', '"someone_new"')

    broken = rewritten(archive, tmp_path / "b.zip", "annotation.clustermember.jsonl", twice)
    manifest = json.loads(zipfile.ZipFile(broken).read("manifest.json"))
    manifest["tables"]["annotation.clustermember"]["rows"] += 1
    broken = rewritten(broken, tmp_path / "c.zip", "manifest.json", lambda _: json.dumps(manifest))
    broken = rewritten(broken, tmp_path / "d.zip", "users.jsonl", renamed)
    assert "the database refused" in refused(broken, name="other")


def test_an_archive_from_a_newer_release_is_refused(archive, tmp_path):
    def newer(text: str) -> str:
        manifest = json.loads(text)
        manifest["migrations"]["annotation"].append("0099_from_the_future")
        return json.dumps(manifest)

    broken = rewritten(archive, tmp_path / "b.zip", "manifest.json", newer)
    assert "annotation.0099_from_the_future" in refused(broken, name="other")


def test_an_archive_with_other_columns_is_refused(archive, tmp_path):
    def older(text: str) -> str:
        manifest = json.loads(text)
        manifest["tables"]["annotation.topic"]["columns"].remove("split")
        return json.dumps(manifest)

    broken = rewritten(archive, tmp_path / "b.zip", "manifest.json", older)
    assert "annotation.topic: the archive's columns" in refused(broken, name="other")


def test_a_zip_with_a_stranger_file_is_refused(archive, tmp_path):
    hostile = tmp_path / "hostile.zip"
    hostile.write_bytes(archive.read_bytes())
    with zipfile.ZipFile(hostile, "a") as zip_file:
        zip_file.writestr("../../etc/cron.d/evil", "* * * * * root true\n")
    assert "../../etc/cron.d/evil" in refused(hostile, name="other")


def test_a_file_that_is_not_a_zip_is_refused(tmp_path):
    junk = tmp_path / "junk.zip"
    junk.write_text("not a zip")
    assert "not a readable zip archive" in refused(junk)
    assert not Project.objects.exists()
    assert not Operation.objects.exists()


def test_json_nested_deep_enough_to_exhaust_the_stack_is_refused(archive, tmp_path):
    def deep(text: str) -> str:
        first, *rest = text.splitlines()
        nested = first.replace(
            '"payload": {', '"payload": ' + "[" * 100_000 + "]" * 100_000 + ', "unused": {', 1
        )
        return "\n".join([nested, *rest]) + "\n"

    broken = rewritten(archive, tmp_path / "b.zip", "annotation.operation.jsonl", deep)
    assert "annotation.operation.jsonl line 1: not JSON" in refused(broken, name="other")


def first_row_changed(change):
    """A `rewritten` change: `change(row)` on the member's first row, the others as they were."""

    def rewrite(text: str) -> str:
        first, *rest = text.splitlines()
        row = json.loads(first)
        change(row)
        return "".join(line + "\n" for line in [json.dumps(row), *rest])

    return rewrite


def set_column(column: str, value):
    return first_row_changed(lambda row: row.update({column: value}))


@pytest.mark.parametrize(
    ("member", "change", "message"),
    [
        # Accepted, it made the annotation, its undo and the export answer 500.
        (
            "annotation.mention.jsonl",
            set_column("spans", "x"),
            (
                "annotation.mention.jsonl line 1, spans: spans: must be a non-empty list of "
                "[start, end] pairs, not 'x'"
            ),
        ),
        (
            "annotation.mention.jsonl",
            set_column("spans", [[0, 999]]),
            "annotation.mention.jsonl line 1, spans: The span [0, 999] lies outside document 1",
        ),
        (
            "annotation.mention.jsonl",
            set_column("spans", [[2, 1]]),
            "The span [2, 1] ends before it starts",
        ),
        (
            "annotation.annotation.jsonl",
            first_row_changed(lambda row: row.update(version=row["version"] + 1000)),
            (
                "annotation.annotation.jsonl line 1, version: the annotation is at version 1003, "
                "its log holds 3 operation(s) numbered 1, 2, 3"
            ),
        ),
        (
            "annotation.document.jsonl",
            first_row_changed(lambda row: row["tokens"].__setitem__(0, "a\x00b")),
            "annotation.document.jsonl line 1, tokens[0]: holds a NUL character",
        ),
        (
            "annotation.document.jsonl",
            first_row_changed(lambda row: row["metadata"].update(title="\ud800")),
            "annotation.document.jsonl line 1, metadata['title']: holds a lone surrogate",
        ),
    ],
)
def test_values_the_live_tables_would_refuse_are_refused_naming_line_and_column(
    archive, tmp_path, member, change, message
):
    broken = rewritten(archive, tmp_path / "b.zip", member, change)
    assert message in refused(broken, name="other")


def test_a_mention_on_another_topics_document_is_refused(archive, tmp_path):
    documents = [
        json.loads(line)
        for line in zipfile.ZipFile(archive).read("annotation.document.jsonl").decode().splitlines()
    ]
    elsewhere = next(d for d in documents if d["topic_id"] != documents[0]["topic_id"])

    def moved(row):
        assert row["topic_id"] == documents[0]["topic_id"]
        row["document_id"] = elsewhere["id"]

    broken = rewritten(
        archive, tmp_path / "b.zip", "annotation.mention.jsonl", first_row_changed(moved)
    )
    assert "annotation.mention.jsonl line 1, document_id: the document is on another topic" in (
        refused(broken, name="other")
    )


def test_a_log_naming_a_cluster_that_never_existed_is_refused(archive, tmp_path):
    """The effect's ids are whole numbers (so they were remapped): the log does not replay."""

    def elsewhere(row):
        for effect in row["effects"]:
            if effect["e"] == "member_set":
                effect["new"] = 10**9

    broken = rewritten(
        archive, tmp_path / "b.zip", "annotation.operation.jsonl", first_row_changed(elsewhere)
    )
    message = refused(broken, name="other")
    assert "the log of ann's annotation of topic" in message
    assert "does not replay" in message


def test_a_member_present_twice_is_refused(archive, tmp_path):
    twice = tmp_path / "twice.zip"
    twice.write_bytes(archive.read_bytes())
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(twice, "a") as copy:
        copy.writestr("users.jsonl", "")
    assert "the archive holds users.jsonl more than once" in refused(twice, name="other")


def test_a_line_longer_than_any_row_is_refused_without_reading_it_whole(archive, tmp_path):
    """White space is JSON: a 160 MiB line was read whole (a 512 MiB one took 1.15 GB) and
    imported. Now at most MAX_LINE bytes of it are read."""
    padded = first_row_changed(lambda row: None)
    long = rewritten(
        archive,
        tmp_path / "long.zip",
        "annotation.topic.jsonl",
        lambda text: padded(text).replace("\n", " " * (160 * 1024**2) + "\n", 1),
    )
    tracemalloc.start()
    try:
        message = refused(long, name="other")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert f"annotation.topic.jsonl line 1 is longer than {MAX_LINE // 1024**2} MiB" in message
    assert peak < 3 * MAX_LINE


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**6) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(
    max_examples=30,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_generated_values_are_imported_or_refused_with_a_message(archive, tmp_path, data):
    """Any value of any row changed to any JSON value (or a JSON value's part): the import
    succeeds, or refuses with ArchiveInvalid and writes nothing; never another exception."""
    members = sorted(
        name
        for name in zipfile.ZipFile(archive).namelist()
        if name.endswith(".jsonl") and zipfile.ZipFile(archive).read(name).strip()
    )
    member = data.draw(st.sampled_from(members))

    def change(row):
        column = data.draw(st.sampled_from(sorted(row)))
        value = row[column]
        if isinstance(value, (list, dict)) and value and data.draw(st.booleans()):
            key = data.draw(
                st.sampled_from(sorted(value) if isinstance(value, dict) else range(len(value)))
            )
            value[key] = data.draw(JSON_VALUES)
        else:
            row[column] = data.draw(JSON_VALUES)

    changed = rewritten(archive, tmp_path / "generated.zip", member, first_row_changed(change))
    before = rows_everywhere()
    name = f"generated {data.draw(st.integers(0, 10**9))}"
    try:
        project_import(path=changed, name=name)
    except ArchiveInvalid as refusal:
        message = str(refusal)
    else:
        Project.objects.filter(name=name).delete()
        return
    assert message
    assert rows_everywhere() == before
