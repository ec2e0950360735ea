"""A Label Studio export through the app (real PostgreSQL): coreference relations become
gold clusters, a relation of a link type a link, another relation a warning."""

from __future__ import annotations

import json

import pytest

from annotation.models import Cluster, RelationLink, Topic
from annotation.services.imports.topics import topics_import
from tests.corefscore.formats.test_formats_label_studio import TEXT, region, relation
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db


def test_a_label_studio_export_imports_clusters_and_links(tmp_path):
    results = [
        region("m", 0, 4),
        region("j", 9, 13),
        region("s", 15, 18),
        region("h", 27, 30),
        region("e", 32, 43, "EVENT"),
        relation("s", "m", ["coref"]),
        relation("h", "j", ["coref"]),
        relation("e", "m", ["Transformed"]),
        relation("j", "e", ["part-of"], direction="left"),
    ]
    source = tmp_path / "export.json"
    source.write_text(
        json.dumps([{"id": 3, "data": {"text": TEXT}, "annotations": [{"result": results}]}])
    )
    project = ProjectFactory(name="LS", hierarchy=True, anaphora=True)

    result = topics_import(project=project, path=source, format="label-studio")

    assert result.topics == ["3"]
    assert result.gold == 1
    assert any("1 part-of left out" in str(w) for w in result.warnings)
    gold = Topic.objects.get(project=project).annotations.get(kind="gold")
    assert Cluster.objects.filter(annotation=gold).count() == 2
    assert list(RelationLink.objects.filter(annotation=gold).values_list("type", flat=True)) == [
        "TRANSFORMED"
    ]
