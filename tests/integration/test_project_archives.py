"""Project archives between two instances: the demo projects (with edits that leave ids only
in the logs, an accepted suggestion, a practice attempt and a split) are exported from
instance A (the test database), imported by `manage.py import_project` into instance B (a
second database on the same server, migrated by its own process), exported again from B and
compared with A's archive field by field after id mapping. In B every imported log replays
to the stored state, and undoing an imported annotation's last operation through the service
does what the same undo does in A."""

from __future__ import annotations

import json
import os
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from adjudication.selectors.candidates import submitted_annotator_work
from adjudication.services.adjudications import create_adjudication
from annotation.models import Annotation, Assignment, Document, Operation, Project
from annotation.selectors.state import annotation_state_load
from annotation.services.assignments import assignment_submit
from annotation.services.operations import annotation_undo
from corefapp.archives.json_ids import effects_remap
from corefapp.archives.reader import Archive, archive_read
from corefapp.archives.tables import TABLES
from datasets.models import SplitRecord
from fixtures.demo.load import demo_load
from fixtures.demo.validation import NAME as VALIDATION_DEMO
from modelserve.models import Suggestion, SuggestionRun
from onboarding.models import PracticeAttempt, PracticeTopic
from tests.e2e.data import apply_ops, mention_ids
from tests.factories import UserFactory
from tests.integration.databases import manage, second_database

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# Every id of A is at least A_IDS and below B_IDS, every id of B at least B_IDS; the other
# numbers of a project (versions, offsets, counts, seeds) are far smaller. So the comparison
# can tell ids from other numbers without the importer's list of where ids are. Each table's
# ids start 10^5 after the previous table's, so an id of A names one row of one table.
A_IDS, B_IDS = 10**6, 10**8
SEQUENCES_FROM = """
SELECT setval(format('%%I.%%I', schemaname, sequencename)::regclass,
              greatest(coalesce(last_value, 0),
                       %s + 100000 * row_number() OVER (ORDER BY sequencename)))
FROM pg_sequences WHERE schemaname = 'public'
"""


# Instance B imports each of A's archives and exports it again, in order, with the commands
# (`manage.py import_project`, `export_project`) in one process of its own: a process per
# command cost a Django start-up each (two per project).
ROUND_TRIP_B = """
import json
from io import StringIO
from django.core.management import call_command

reports = []
for source, name, target in JOBS:
    report = StringIO()
    call_command("import_project", source, stdout=report)
    reports.append(report.getvalue())
    call_command("export_project", name, target)
print(json.dumps(reports))
"""


@pytest.fixture
def instance_b(services):
    with second_database(services, f"archive_b_{os.getpid()}", migrated=True) as url:
        yield _instance_b_env(services, url)


def _instance_b_env(services, url: str) -> dict:
    env = dict(
        os.environ,
        DATABASE_URL=url,
        REDIS_URL=services.redis_url,
        SECRET_KEY=settings.SECRET_KEY,
        DJANGO_SETTINGS_MODULE="corefapp.settings",
    )
    with psycopg.connect(env["DATABASE_URL"], autocommit=True) as connection:
        connection.execute(SEQUENCES_FROM, [B_IDS])
    return env


def work_that_leaves_ids_in_the_logs_only() -> Annotation:
    """Edits on the SciCo demo: a merge deletes a cluster, an added mention is undone (both
    ids then live in the log only), a suggestion is accepted, a span fixed, and a last
    assign to undo."""
    project = Project.objects.get(name="SciCo demo")
    Project.objects.filter(pk=project.pk).update(allow_add_mentions=True, allow_fix_spans=True)
    annotation = (
        Annotation.objects.filter(topic__project=project, kind="annotator")
        # A real topic: a practice topic takes no suggestion (docs/onboarding.md).
        .exclude(topic__practice__isnull=False)
        .select_related("assignment__user", "topic")
        .order_by("pk")
        .first()
    )
    user, topic = annotation.assignment.user, annotation.topic
    m = mention_ids(topic)
    first, second = apply_ops(
        annotation,
        user,
        [
            {"op": "assign", "mention": m[0], "cluster": None},
            {"op": "assign", "mention": m[1], "cluster": None},
        ],
    )
    a, b = first.created["cluster"], second.created["cluster"]
    document = Document.objects.filter(topic=topic).order_by("position").first()
    apply_ops(
        annotation,
        user,
        [
            {"op": "merge", "source": b, "target": a},
            {"op": "add_mention", "document": document.pk, "spans": [[0, 0]]},
        ],
    )
    version = Annotation.objects.get(pk=annotation.pk).version
    annotation_undo(annotation_id=annotation.pk, user=user, expected_version=version)
    run = SuggestionRun.objects.create(topic=topic, backend="minilm", status="succeeded")
    group = Suggestion.objects.create(
        run=run, kind="cluster", position=0, score=0.9, payload={"mentions": [m[2], m[3]]}
    )
    member = Suggestion.objects.create(
        run=run,
        kind="membership",
        position=0,
        score=0.9,
        payload={"mention": m[2], "cluster": group.pk},
    )
    apply_ops(
        annotation,
        user,
        [
            {
                "op": "accept_suggestion",
                "suggestion": member.pk,
                "operation": {"op": "assign", "mention": m[2], "cluster": a},
            },
            {"op": "fix_span", "mention": m[5], "spans": [[0, 1]]},
            {"op": "assign", "mention": m[4], "cluster": a},
        ],
    )
    SplitRecord.objects.create(
        project=project,
        method="random",
        seed=7,
        names=["train", "test"],
        ratios=[0.5, 0.5],
        balance="clusters",
        deviation=0.1,
        assignment={topic.external_id: "train"},
    )
    return annotation


def a_practice_attempt() -> None:
    practice = PracticeTopic.objects.select_related("topic").order_by("pk").first()
    assignment = (
        Assignment.objects.filter(topic=practice.topic, role="annotator")
        .select_related("user", "annotation")
        .order_by("pk")
        .first()
    )
    ops = [{"op": "assign", "mention": m, "cluster": None} for m in mention_ids(practice.topic)]
    apply_ops(assignment.annotation, assignment.user, ops[:-1])
    assignment_submit(assignment_id=assignment.pk, user=assignment.user)
    assert PracticeAttempt.objects.filter(practice=practice).exists()


def an_adjudication_and_validation_decisions() -> None:
    agreement = Project.objects.get(name="SciCo agreement demo")
    topic = next(
        t for t in agreement.topics.order_by("position") if len(submitted_annotator_work(t)) >= 2
    )
    create_adjudication(topic=topic, user=UserFactory(username="adjudicator"))
    validation = (
        Annotation.objects.filter(topic__project__name=VALIDATION_DEMO, kind="annotator")
        .select_related("assignment__user", "topic")
        .order_by("pk")
        .first()
    )
    m = mention_ids(validation.topic)
    apply_ops(
        validation,
        validation.assignment.user,
        [
            {"op": "validate", "mention": m[0], "decision": "accepted"},
            {"op": "validate", "mention": m[1], "decision": "rejected", "reason": "context"},
        ],
    )


def id_mapping(a: Archive, b: Archive) -> dict[str, dict[int, int]]:
    """Old id -> new id per space, from the two archives alone: the importer keeps order."""
    mapping = {}
    for space, ids in a.ids.items():
        assert len(ids) == len(b.ids[space]), space
        mapping[space] = dict(zip(sorted(ids), sorted(b.ids[space]), strict=True))
    b_users = {row["username"]: row["id"] for row in b.users}
    mapping["user"] = {row["id"]: b_users[row["username"]] for row in a.users}
    return mapping


def assert_mapped(a: Any, b: Any, mapped: dict[int, set[int]], where: str) -> None:
    """`b` is `a` with every id (a number from A_IDS up) replaced by its image, and every
    other value unchanged: walked without knowing which keys hold ids."""
    if isinstance(a, dict):
        assert isinstance(b, dict), where
        a_keys = {_mapped_key(key, mapped, where): key for key in a}
        assert set(a_keys) == set(b), where
        for key, old in a_keys.items():
            assert_mapped(a[old], b[key], mapped, f"{where}.{old}")
    elif isinstance(a, list):
        assert isinstance(b, list), where
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_mapped(x, y, mapped, f"{where}[{i}]")
    elif isinstance(a, int) and not isinstance(a, bool) and a >= A_IDS:
        assert a < B_IDS, where
        assert b in mapped.get(a, set()), f"{where}: {a} became {b}"
    else:
        assert a == b, where


def _mapped_key(key: str, mapped: dict[int, set[int]], where: str) -> str:
    # Practice feedback is keyed by mention ids.
    if key.isdecimal() and int(key) >= A_IDS:
        images = mapped.get(int(key), set())
        assert len(images) == 1, f"{where}: key {key}"
        return str(next(iter(images)))
    return key


def assert_same_after_mapping(a: Archive, b: Archive) -> dict[str, dict[int, int]]:
    mapping = id_mapping(a, b)
    mapped: dict[int, set[int]] = {}
    for ids in mapping.values():
        for old, new in ids.items():
            mapped.setdefault(old, set()).add(new)
    for table in TABLES:
        a_rows = sorted(a.rows[table.label], key=lambda row: row["id"])
        b_rows = sorted(b.rows[table.label], key=lambda row: row["id"])
        assert len(a_rows) == len(b_rows), table.label
        for a_row, b_row in zip(a_rows, b_rows, strict=True):
            assert_mapped(a_row, b_row, mapped, f"{table.label} {a_row['id']}")
            for column, space in table.keys.items():  # each key into its own table's ids
                if a_row[column] is not None:
                    assert b_row[column] == mapping[space][a_row[column]], (table.label, column)
    for a_user in a.users:
        b_user = next(u for u in b.users if u["username"] == a_user["username"])
        assert {k: v for k, v in a_user.items() if k not in ("id", "is_staff")} == {
            k: v for k, v in b_user.items() if k not in ("id", "is_staff")
        }
    return mapping


CHECK_B = """
import json
from annotation.domain.history import replay
from annotation.models import Annotation, Operation
from annotation.selectors.state import annotation_initial_state, annotation_state_load
from annotation.services.operations import annotation_undo

diverging = []
for annotation in Annotation.objects.order_by("pk"):
    log = list(Operation.objects.filter(annotation=annotation).order_by("version"))
    replayed = replay(annotation_initial_state(annotation), log)
    if replayed.snapshot() != annotation_state_load(annotation).snapshot():
        diverging.append(annotation.pk)
annotation = Annotation.objects.select_related("assignment__user").get(pk=UNDONE)
applied = annotation_undo(annotation_id=annotation.pk, user=annotation.assignment.user,
                          expected_version=annotation.version)
state = annotation_state_load(Annotation.objects.get(pk=UNDONE))
print(json.dumps({
    "diverging": diverging,
    "effects": applied.effects,
    "clusters": sorted(sorted(c.members) for c in state.clusters.values()),
}))
"""


def test_the_demo_projects_round_trip_between_two_instances(instance_b, tmp_path):
    with connection.cursor() as cursor:
        cursor.execute(SEQUENCES_FROM, [A_IDS])
    demo_load(password="demo-password")
    edited = work_that_leaves_ids_in_the_logs_only()
    a_practice_attempt()
    an_adjudication_and_validation_decisions()
    names = list(Project.objects.order_by("pk").values_list("name", flat=True))
    assert len(names) >= 4

    created: list[str] = []
    matched: list[str] = []
    for i, name in enumerate(names):
        call_command("export_project", name, str(tmp_path / f"a{i}.zip"))
    jobs = [
        (str(tmp_path / f"a{i}.zip"), name, str(tmp_path / f"b{i}.zip"))
        for i, name in enumerate(names)
    ]
    reports = json.loads(
        manage(instance_b, "shell", "-c", ROUND_TRIP_B.replace("JOBS", repr(jobs)))
        .strip()
        .splitlines()[-1]
    )
    for report in reports:
        created += report.split("users created: ")[1].splitlines()[0].split(", ")
        matched += report.split("users matched: ")[1].splitlines()[0].split(", ")
    # Users are created once, then matched by name by the next projects' imports.
    created = [user for user in created if user != "none"]
    assert len(created) == len(set(created))
    assert {"annotator1", "annotator2"} <= set(created)
    assert "annotator1" in matched

    mappings = {}
    carried: dict[str, int] = {}
    for i, name in enumerate(names):
        a, b = archive_read(tmp_path / f"a{i}.zip"), archive_read(tmp_path / f"b{i}.zip")
        assert a.project_name == b.project_name == name
        mappings[name] = assert_same_after_mapping(a, b)
        for label, rows in a.rows.items():
            carried[label] = carried.get(label, 0) + len(rows)
        seeds = [op for op in a.rows["annotation.operation"] if op["name"] == "adjudication_seed"]
        carried["seed operations"] = carried.get("seed operations", 0) + len(seeds)
    # Every kind of row the issue names went through the round trip at least once.
    for label in (
        "annotation.validationdecision",
        "annotation.suggestiondecision",
        "annotation.mentionedit",
        "modelserve.suggestion",
        "modelserve.suggestionsettings",
        "onboarding.practiceattempt",
        "onboarding.qualificationrule",
        "datasets.splitrecord",
        "seed operations",
    ):
        assert carried[label] > 0, label
    scico = mappings["SciCo demo"]
    # The deleted cluster and the undone mention were given ids here too.
    logged = Operation.objects.filter(annotation=edited)
    assert len(scico["cluster"]) > edited.clusters.count()
    assert any(e["e"] == "mention_removed" for op in logged for e in op.effects)

    undone_in_b = scico["annotation"][edited.pk]
    checked = json.loads(
        manage(instance_b, "shell", "-c", CHECK_B.replace("UNDONE", str(undone_in_b)))
        .strip()
        .splitlines()[-1]
    )
    assert checked["diverging"] == []
    edited.refresh_from_db()
    applied = annotation_undo(
        annotation_id=edited.pk, user=edited.assignment.user, expected_version=edited.version
    )
    after = annotation_state_load(Annotation.objects.get(pk=edited.pk))
    assert checked["effects"] == effects_remap(applied.effects, lambda s, old: scico[s][old])
    assert [effect["e"] for effect in applied.effects] == ["member_set"]
    assert checked["clusters"] == sorted(
        sorted(scico["mention"][m] for m in c.members) for c in after.clusters.values()
    )
