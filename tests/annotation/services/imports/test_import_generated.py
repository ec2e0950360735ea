"""Uploads through the real import API, with the database: a damaged zip and generated
files of each format are answered with a success or a JSON 400, never a 500, and a refusal
writes nothing (every table keeps the rows it had)."""

from __future__ import annotations

import io
import json
import re
import struct
import zipfile

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from annotation.models import Project
from tests.corefscore.formats.test_formats_corefud import DISCONTINUOUS
from tests.corefscore.formats.test_formats_label_studio import TEXT, region, relation
from tests.factories import AdminFactory
from tests.paths import INCEPTION_SUITE

pytestmark = pytest.mark.django_db

GENERATED = settings(
    max_examples=40,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def rows_everywhere() -> dict[str, int]:
    counts = {}
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names()):
            cursor.execute(f'SELECT count(*) FROM "{table}"')
            counts[table] = cursor.fetchone()[0]
    return counts


@pytest.fixture
def post():
    client = APIClient()
    client.force_authenticate(AdminFactory())
    projects = iter(range(10**6))

    def upload(name: str, content: bytes, format: str):
        """The answer to the upload, into a fresh project; a refusal must leave every table
        as it was."""
        project = Project.objects.create(name=f"generated {next(projects)}", anaphora=True)
        before = rows_everywhere()
        file = io.BytesIO(content)
        file.name = name
        response = client.post(
            f"/api/projects/{project.pk}/imports/",
            {"file": file, "format": format},
            format="multipart",
        )
        assert response.status_code in (201, 400), (response.status_code, response.content)
        if response.status_code == 400:
            assert response.json()["message"], response.content
            assert rows_everywhere() == before
        return response

    return upload


def zip_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def size_lied(data: bytes, size: int) -> bytes:
    """`data` (a zip of one member) with that member's size, in both headers, said `size`."""
    lying = bytearray(data)
    struct.pack_into("<I", lying, lying.find(b"PK\x03\x04") + 22, size)
    struct.pack_into("<I", lying, lying.rfind(b"PK\x01\x02") + 24, size)
    return bytes(lying)


SCICO = json.dumps(
    {
        "id": 1,
        "tokens": [["We", "use", "CRF", "taggers", "."]],
        "mentions": [[0, 2, 2, 0], [0, 3, 3, 0]],
        "relations": [],
    }
).encode()


def test_a_zip_whose_size_header_lies_is_refused_with_a_400(post):
    """It gave a 500 (BadZipFile: a CRC that does not match) on the synchronous path."""
    damaged = size_lied(zip_of({"a.jsonl": SCICO + b"\n"}), 5)
    response = post("damaged.zip", damaged, "scico")
    assert response.status_code == 400
    assert "damaged.zip is a damaged zip archive" in response.json()["message"]


# Any JSON value, small: what a hostile or broken export may hold where a field belongs.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def replaced(data: st.DataObject, value, depth: int = 0):
    """`value` with one place in it (drawn) replaced by any JSON value."""
    if depth > 6 or not isinstance(value, (dict, list)) or not value or data.draw(st.booleans()):
        return data.draw(JSON_VALUES)
    copy = dict(value) if isinstance(value, dict) else list(value)
    key = data.draw(st.sampled_from(sorted(copy) if isinstance(copy, dict) else range(len(copy))))
    copy[key] = replaced(data, copy[key], depth + 1)
    return copy


def label_studio_export() -> list:
    results = [
        region("m", 0, 4),
        region("j", 9, 13),
        region("s", 15, 18),
        relation("s", "m", ["coref"]),
        relation("j", "m", ["Transformed"]),
    ]
    return [{"id": 3, "data": {"text": TEXT}, "annotations": [{"result": results}]}]


@GENERATED
@given(data=st.data())
def test_generated_label_studio_exports_never_give_a_500(post, data):
    export = label_studio_export()
    for _ in range(data.draw(st.integers(1, 3))):
        export = replaced(data, export)
    post("export.json", json.dumps(export).encode(), "label-studio")


CONLLU_CELL = st.text(alphabet="0123456789-.()=|<>:[]/e_x\t ", max_size=8)


@GENERATED
@given(data=st.data())
def test_generated_conllu_files_never_give_a_500(post, data):
    lines = DISCONTINUOUS.split("\n")
    for _ in range(data.draw(st.integers(1, 3))):
        number = data.draw(st.integers(0, len(lines) - 1))
        cells = lines[number].split("\t")
        cell = data.draw(st.integers(0, len(cells) - 1))
        cells[cell] = data.draw(CONLLU_CELL)
        lines[number] = "\t".join(cells)
    post("document.conllu", "\n".join(lines).encode(), "corefud")


XMI = (INCEPTION_SUITE / "testSimpleChain" / "reference.xmi").read_text()
XMI_ATTRIBUTES = list(re.finditer(r'(?:begin|end|sofa|next|first)="([^"]*)"', XMI))


@GENERATED
@given(data=st.data())
def test_generated_uima_xmi_files_never_give_a_500(post, data):
    chosen = data.draw(st.lists(st.sampled_from(XMI_ATTRIBUTES), min_size=1, max_size=3))
    text = XMI
    for match in sorted(set(chosen), key=lambda m: -m.start(1)):
        value = data.draw(st.integers(-3, 40).map(str) | st.text("0123456789-x ", max_size=4))
        text = text[: match.start(1)] + value + text[match.end(1) :]
    post("document.xmi", text.encode(), "uima-xmi")


@GENERATED
@given(data=st.data())
def test_generated_damaged_zips_never_give_a_500(post, data):
    """Bytes of a good zip changed anywhere: headers, sizes, CRCs, compressed data."""
    damaged = bytearray(zip_of({"topics/a.jsonl": SCICO + b"\n", "topics/b.jsonl": SCICO}))
    for _ in range(data.draw(st.integers(1, 4))):
        damaged[data.draw(st.integers(0, len(damaged) - 1))] = data.draw(st.integers(0, 255))
    post("upload.zip", bytes(damaged), "scico")
