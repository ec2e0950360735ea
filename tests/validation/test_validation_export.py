"""Exporting validated clusters (rejected mentions removed or kept and flagged, reasons and
notes in a side file) and turning a validation project into a clustering project."""

import json

import pytest
from django.core.management import CommandError, call_command

from annotation.models import Annotation, ClusterMember, Project
from corefscore.formats import read
from tests.validation.test_validation_measures import validated_wec_project

pytestmark = [pytest.mark.django_db, pytest.mark.project(build=validated_wec_project)]


def export(project, tmp_path, fmt, *extra):
    out = tmp_path / ("out" if fmt in ("corefi", "brat") else f"out.{fmt}")
    call_command("export_annotations", "--project", project.name, "--format", fmt, str(out), *extra)
    return out


def members(topic):
    return sorted(sum(1 for m in topic.mentions if m.cluster == c.key) for c in topic.clusters)


def test_rejected_mentions_are_removed_by_default(project, tmp_path):
    out = export(project, tmp_path, "scico")
    (topic,) = read("scico", out).topics
    # input clusters of 4, 1, 2; m1 rejected by both; m6 decided differently: kept, undecided
    assert len(topic.mentions) == 6
    assert members(topic) == [1, 2, 3]
    lines = [
        json.loads(x) for x in (tmp_path / "out.scico.validation.jsonl").read_text().splitlines()
    ]
    rejected = [x for x in lines if x["decision"] == "rejected"]
    assert len(lines) == 6
    assert len(rejected) == 1
    assert rejected[0]["text"] == "sequence tagging"
    assert rejected[0]["reason"] == "trigger"
    assert rejected[0]["reason_label"].startswith("Its boundaries")


def test_keep_rejected_keeps_them_flagged_in_corefi_fields(project, tmp_path):
    out = export(project, tmp_path, "corefi", "--keep-rejected")
    document = json.loads(next(out.glob("*.json")).read_text())
    flagged = [m for m in document["mentions"] if m.get("validation") == "rejected"]
    assert len(document["mentions"]) == 7
    assert len(flagged) == 1
    assert flagged[0]["reason"] == "trigger"
    assert "clustId" in flagged[0]
    assert (out / "validation.jsonl").exists()


def test_one_validators_decisions_export_by_username(project, tmp_path):
    out = export(project, tmp_path, "scico", "--source", "bob")
    (topic,) = read("scico", out).topics
    assert len(topic.mentions) == 5  # bob rejected m1 and m6


def test_a_validated_project_becomes_a_clustering_project(project):
    call_command("validation_to_clustering", "--project", "WEC", "--name", "WEC clusters")
    new = Project.objects.get(name="WEC clusters")
    assert new.hierarchy
    assert not new.validation
    topic = new.topics.get()
    gold = Annotation.objects.get(topic=topic, kind=Annotation.Kind.GOLD)
    assert topic.mentions.count() == 6
    assert ClusterMember.objects.filter(annotation=gold).count() == 6
    with pytest.raises(CommandError, match="exists already"):
        call_command("validation_to_clustering", "--project", "WEC", "--name", "WEC clusters")
