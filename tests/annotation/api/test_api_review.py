"""Reviewing: an annotation's payload names whose it is, for the review banner."""

import pytest

from tests.factories import UserFactory, assign, make_topic

pytestmark = pytest.mark.django_db


def test_an_admin_reads_whose_annotation_it_is(admin_client):
    _, annotation = assign(make_topic(), UserFactory(username="annotator1"))

    body = admin_client.get(f"/api/annotations/{annotation.pk}/").json()

    assert body["annotator"] == "annotator1"
