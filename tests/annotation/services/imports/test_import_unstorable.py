"""Imports of what PostgreSQL cannot store, or Python's JSON parser cannot read, are refused
with a JSON 400 that names the topic and field, and nothing is written (each was a 500)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from annotation.models import Document, Topic
from annotation.services.imports.topics import topics_import
from tests.factories import AdminFactory, ProjectFactory
from tests.paths import CHEMU_DEMO, DEMO

pytestmark = pytest.mark.django_db

EXTENSION = {"scico": ".jsonl", "chemu": ".jsonlines", "corefi": ".json"}


def scico(id=1, tokens=None, **extra) -> str:
    line = {
        "id": id,
        "tokens": tokens or [["We", "use", "CRF", "taggers", "."]],
        "mentions": [[0, 2, 2, 0], [0, 3, 3, 1]],
        "relations": [],
    }
    return json.dumps({**line, **extra})


def chemu(**fields) -> str:
    return json.dumps({**json.loads(CHEMU_DEMO.read_text().splitlines()[0]), **fields})


def corefi(**fields) -> str:
    return json.dumps(
        {**json.loads((DEMO / "scientific_onboarding_tutorial.json").read_text()), **fields}
    )


CASES = {
    "a NUL in a token": (
        "scico", scico(tokens=[["We", "u\u0000se", "CRF", "taggers", "."]]),
        "tokens[1]: holds a NUL character",
    ),
    "a lone surrogate in a token": (
        "scico", scico(tokens=[["We", "\ud800", "CRF", "taggers", "."]]),
        "tokens[1]: holds a lone surrogate",
    ),
    "a lone surrogate in an unknown field": (
        "scico", scico(notes={"k": "\udc00"}), "holds a lone surrogate",
    ),
    "deeply nested JSON": (
        "scico", scico(x=[]).replace('"x": []', '"x": ' + "[" * 100_000 + "]" * 100_000),
        "nested too deeply",
    ),
    "a SciCo id of 10**400": ("scico", scico(id=10**400), "field id: is 401 characters long"),
    "a number of 5,000 digits": (
        "scico", scico(x=10**400).replace("1" + "0" * 400, "9" * 5000), "too long to read",
    ),
    "a CoRefi id of 10,000 characters": (
        "corefi", corefi(id="x" * 10_000), "field id: is 10,000 characters long",
    ),
    'a ChEMU "Coreference": "x"': (
        "chemu", chemu(Coreference="x"), "field Coreference: must be a list",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_an_import_of_what_cannot_be_stored_is_a_400_naming_it_and_writes_nothing(case):
    format, content, expected = CASES[case]
    project = ProjectFactory(hierarchy=True, anaphora=True)
    client = APIClient()
    client.force_authenticate(AdminFactory())
    upload = SimpleUploadedFile(
        f"file{EXTENSION[format]}", content.encode("utf-8", errors="surrogatepass")
    )

    response = client.post(
        f"/api/projects/{project.pk}/imports/", {"file": upload, "format": format}
    )

    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"] == "import_refused"
    assert "nothing was imported" in body["message"]
    assert any(expected in error for error in body["errors"]), body["errors"]
    assert not Topic.objects.exists()
    assert not Document.objects.exists()


def test_skipping_invalid_topics_leaves_out_only_the_one_that_cannot_be_stored(tmp_path):
    path = tmp_path / "two.jsonl"
    path.write_text(
        scico(id=1) + "\n" + scico(id=2, tokens=[["a\u0000", "b", "c", "d", "e"]]) + "\n"
    )
    project = ProjectFactory(hierarchy=True)

    result = topics_import(project=project, path=path, format="scico", skip_invalid=True)

    assert result.topics == ["1"]
    assert [str(s.record) for s in result.skipped] == ["topic '2'"]
