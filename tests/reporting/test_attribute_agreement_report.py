"""The agreement report on link attributes (API, zip of CSV tables), from two annotators'
submitted work, against values computed by hand."""

import csv
import io
import zipfile

import pytest
from rest_framework.test import APIClient

from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.operations import annotation_operation_apply
from tests.factories import AdminFactory, ProjectFactory, UserFactory, make_topic, mention_ids

pytestmark = pytest.mark.django_db


def annotate(topic, username, links):
    user = UserFactory(username=username)
    assignment = assignment_create(topic=topic, user=user)
    annotation = assignment.annotation
    for link, certainty in links:
        ops = [{"op": "add_link", **link}]
        if certainty:
            ops.append(
                {"op": "set_link_attribute", **link, "name": "certainty", "value": certainty}
            )
        for op in ops:
            annotation.refresh_from_db()
            annotation_operation_apply(
                annotation_id=annotation.pk,
                user=user,
                payload=op,
                expected_version=annotation.version,
            )
    assignment_submit(assignment_id=assignment.pk, user=user)


def test_the_report_gives_observed_agreement_kappa_and_alpha():
    project = ProjectFactory(
        anaphora=True,
        hierarchy=False,
        attributes=[{"name": "certainty", "values": ["high", "low"]}],
    )
    topic = make_topic(project)
    m = mention_ids(topic)
    first = {"type": "COREFERENCE", "anaphor": m[6], "antecedent": m[5]}
    second = {"type": "COREFERENCE", "anaphor": m[4], "antecedent": m[2]}
    only_ann = {"type": "CONTAINED", "anaphor": m[1], "antecedent": m[0]}
    annotate(topic, "ann", [(first, "high"), (second, "high"), (only_ann, "low")])
    annotate(topic, "bob", [(first, "high"), (second, "low")])
    admin = APIClient()
    admin.force_authenticate(AdminFactory())

    report = admin.get(f"/api/projects/{project.pk}/agreement/").json()

    # Two links both drew: (high, high), (high, low). Observed 1/2. Kappa: ann high 2, bob
    # high 1 low 1 -> chance 2/4 -> (1/2 - 1/2) / (1 - 1/2) = 0. Alpha: values high 3, low 1,
    # D_o = 2/4, D_e = (16 - 10) / 12 = 1/2 -> 0.
    certainty = report["attributes"]["certainty"]
    assert certainty["units"] == 2
    assert certainty["observed"] == 0.5
    assert certainty["pairs"]["ann-bob"]["kappa"] == pytest.approx(0.0)
    assert certainty["alpha"] == pytest.approx(0.0)

    tables = admin.get(f"/api/projects/{project.pk}/agreement/", {"format": "zip"})
    with zipfile.ZipFile(io.BytesIO(tables.content)) as archive:
        rows = list(csv.DictReader(io.StringIO(archive.read("agreement_attributes.csv").decode())))
    assert [(r["attribute"], r["pair"], r["units"], r["observed"]) for r in rows] == [
        ("certainty", "ann-bob", "2", "0.5"),
        ("certainty", "all", "2", "0.5"),
    ]
