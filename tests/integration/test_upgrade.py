"""Upgrades: a database at the oldest schema we still support, with data in it, migrated to
this release's schema by `manage.py migrate`, keeps its data and works.

The oldest supported state is the first release's migration heads (commit ea9d29d, before
the second wave: annotation 0005, modelserve 0004, no onboarding or datasets tables). The data
is written through the historical models of that state (Django's migration state), so it has
exactly the old schema's shape; the checks run with this release's models and services."""

from __future__ import annotations

import json
import os

import pytest
from django.conf import settings

from tests.integration.databases import manage, second_database

pytestmark = pytest.mark.integration

OLDEST = {
    "annotation": "0005_project_refuse_duplicate_link_pairs",
    "modelserve": "0004_run_one_active_per_topic_and_user",
}

# The first release's state, in one process: Django's own apps (unchanged since), ours at
# their heads; then the plan, which the test reads. (A process per step cost a Django start-up
# each; the upgrade itself is a `manage.py migrate` of its own below.)
OLD_STATE = f"""
from io import StringIO
from django.core.management import call_command
call_command("migrate", "auth", verbosity=0)
call_command("migrate", "annotation", "{OLDEST["annotation"]}", verbosity=0)
call_command("migrate", "modelserve", "{OLDEST["modelserve"]}", verbosity=0)
plan = StringIO()
call_command("showmigrations", "--plan", stdout=plan)
print(plan.getvalue())
"""

# Runs at the old schema: historical models of the first release's state.
SEED = """
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.contrib.auth.hashers import make_password

loader = MigrationExecutor(connection).loader
apps = loader.project_state(
    [("annotation", "0005_project_refuse_duplicate_link_pairs"),
     ("modelserve", "0004_run_one_active_per_topic_and_user"),
     *loader.graph.leaf_nodes("auth")]
).apps
User = apps.get_model("auth", "User")
m = lambda name: apps.get_model("annotation", name)
ann = User.objects.create(username="ann", password=make_password("old-release-pw"))
project = m("Project").objects.create(name="old project", hierarchy=True, anaphora=False)
topic = m("Topic").objects.create(project=project, external_id="t1", position=0)
doc = m("Document").objects.create(topic=topic, position=0, tokens=["A", "b", "c", "d"],
                                   token_count=4, sentences=[[0, 4]])
mentions = [m("Mention").objects.create(topic=topic, document=doc, position=i,
                                        spans=[[i, i]]) for i in range(3)]
assignment = m("Assignment").objects.create(topic=topic, user=ann, status="in_progress")
annotation = m("Annotation").objects.create(topic=topic, assignment=assignment, version=2)
cluster = m("Cluster").objects.create(annotation=annotation, label="A")
m("ClusterMember").objects.create(annotation=annotation, mention=mentions[0], cluster=cluster)
m("ClusterMember").objects.create(annotation=annotation, mention=mentions[1], cluster=cluster)
m("Operation").objects.create(
    annotation=annotation, version=1, name="assign", user=ann,
    payload={"op": "assign", "mention": mentions[0].pk, "cluster": None},
    effects=[{"e": "cluster_created", "cluster": cluster.pk, "label": "A", "note": ""},
             {"e": "member_set", "mention": mentions[0].pk, "old": None, "new": cluster.pk}])
m("Operation").objects.create(
    annotation=annotation, version=2, name="assign", user=ann,
    payload={"op": "assign", "mention": mentions[1].pk, "cluster": cluster.pk},
    effects=[{"e": "member_set", "mention": mentions[1].pk, "old": None, "new": cluster.pk}])
apps.get_model("modelserve", "SuggestionSettings").objects.create(project=project)
print(annotation.pk)
"""

# Runs at this release's schema, with its models and services, after printing the plan.
CHECK = """
import json
from io import StringIO
from django.core.management import call_command
plan = StringIO()
call_command("showmigrations", "--plan", stdout=plan)
print(plan.getvalue())
from annotation.models import Annotation, Project, Topic
from annotation.selectors.state import annotation_state_load
from annotation.services.operations import annotation_undo
from django.contrib.auth import authenticate

annotation = Annotation.objects.get(pk=ANNOTATION)
project = Project.objects.get(name="old project")
state = annotation_state_load(annotation)
before = sorted(sorted(c.members) for c in state.clusters.values())
operations = annotation.operations.count()
applied = annotation_undo(annotation_id=annotation.pk, user=annotation.assignment.user,
                          expected_version=annotation.version)
after = annotation_state_load(Annotation.objects.get(pk=annotation.pk))
print(json.dumps({
    "validation": project.validation,
    "scheme": project.scheme,
    "split": Topic.objects.get(project=project).split,
    "operations": operations,
    "before": before,
    "undo_version": applied.version,
    "after": sorted(sorted(c.members) for c in after.clusters.values()),
    "mentions": sorted(Topic.objects.get(project=project).mentions.values_list("pk", flat=True)),
    "signs_in": authenticate(username="ann", password="old-release-pw") is not None,
    "has_suggestion_settings": hasattr(project, "suggestion_settings"),
}))
"""


@pytest.fixture
def old_database(services):
    with second_database(services, f"upgrade_{os.getpid()}") as url:
        yield url


def test_a_first_release_database_with_data_migrates_to_this_release(old_database, services):
    env = dict(
        os.environ,
        DATABASE_URL=old_database,
        REDIS_URL=services.redis_url,
        SECRET_KEY=settings.SECRET_KEY,
        DJANGO_SETTINGS_MODULE="corefapp.settings",
    )
    *lines, seeded = manage(env, "shell", "-c", OLD_STATE + SEED).strip().splitlines()
    plan = "\n".join(lines)
    assert "[X]  annotation.0006_topic_split" not in plan
    assert "[ ]  annotation.0006_topic_split" in plan
    annotation_id = int(seeded)

    manage(env, "migrate")

    *lines, last = (
        manage(env, "shell", "-c", CHECK.replace("ANNOTATION", str(annotation_id)))
        .strip()
        .splitlines()
    )
    plan = "\n".join(lines)
    assert "[ ]" not in plan
    assert "[X]  annotation.0006_topic_split" in plan
    checked = json.loads(last)
    m = checked["mentions"]
    assert checked["validation"] is False
    assert checked["scheme"] == "hierarchy"
    assert checked["split"] == ""
    assert checked["operations"] == 2
    assert checked["before"] == [[m[0], m[1]]]
    # The old log still undoes: the second assign is taken back.
    assert checked["undo_version"] == 3
    assert checked["after"] == [[m[0]]]
    assert checked["signs_in"] is True
    assert checked["has_suggestion_settings"] is True
