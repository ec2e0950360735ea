"""Generated WebAnno TSV 3 uploads: the import answers every one with a 201
or a JSON 400, never a 500, and a refused file writes nothing.

The files are built from TSV 3's own pieces (chain cells ``REL->chain-link`` and
``TYPE[chain]``, span values, ``_`` and ``*``, ids, offsets), some well-formed and some not:
chains with gaps, links out of order, offsets past the text, rows of the wrong width.
Bounded and repeatable: a fixed number of examples, derandomized, no example database.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from annotation.models import Annotation, Mention, Operation, Topic
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

HEADER = (
    "#FORMAT=WebAnno TSV 3.3\n"
    "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n"
    "#T_CH=de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink|referenceType|"
    "referenceRelation\n\n\n"
)
WORDS = ("Anna", "gave", "Ben", "her", "book", ".", "It", "was", "his", "ü", "😀")

# Mostly the numbers INCEpTION writes (chains and links from 1), sometimes 0 or a gap.
numbers = st.integers(min_value=1, max_value=3) | st.just(0)
chain_cell = st.lists(
    st.tuples(st.sampled_from(("*", "anaphoric", "a\\|b")), numbers, numbers).map(
        lambda t: f"{t[0]}->{t[1]}-{t[2]}"
    ),
    min_size=0,
    max_size=2,
).map(lambda cells: "|".join(cells) or "_")
type_cell = st.lists(
    st.tuples(st.sampled_from(("*", "nam", "pro", "")), numbers).map(lambda t: f"{t[0]}[{t[1]}]"),
    min_size=0,
    max_size=2,
).map(lambda cells: "|".join(cells) or "_")
span_cell = st.sampled_from(("_", "_", "*", "PER", "LOC[1]", "PER[2]|LOC[3]", "\\_"))
# At most one flaw a file, on one row, so that many files are sound and reach the writing.
FLAWS = (None, None, None, "width", "shift", "far", "back")


@st.composite
def tsv_files(draw) -> str:
    """Sentences of rows; offsets follow the words, but for the file's flaw if it has one."""
    flaw = draw(st.sampled_from(FLAWS))
    out, offset, row = [HEADER], 0, 0
    flawed = draw(st.integers(min_value=0, max_value=4))
    for sentence in range(1, draw(st.integers(min_value=1, max_value=3)) + 1):
        words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5))
        out.append(f"#Text={' '.join(words)}\n")
        position = offset
        for number, word in enumerate(words, start=1):
            length = len(word.encode("utf-16-le")) // 2
            here = flaw if row == flawed else None
            row += 1
            begin = position + {"shift": 1, "far": 50, "back": -1}.get(here or "", 0)
            cells = [draw(span_cell), draw(type_cell), draw(chain_cell)]
            if here == "width":
                cells = cells[:-1]
            fields = [f"{sentence}-{number}", f"{begin}-{begin + length}", word, *cells]
            out.append("\t".join(fields) + "\t\n")
            position += length + 1
        offset = position
        out.append("\n")
    return "".join(out)


def upload(client, project, content: str):
    file = io.BytesIO(content.encode("utf-8"))
    file.name = "fuzz.tsv"
    return client.post(
        f"/api/projects/{project.pk}/imports/",
        {"file": file, "format": "webanno-tsv"},
        format="multipart",
    )


@settings(
    max_examples=80,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(content=tsv_files())
def test_a_generated_tsv_upload_is_imported_or_refused_with_nothing_written(admin_client, content):
    project = ProjectFactory.create()
    before = (Mention.objects.count(), Annotation.objects.count(), Operation.objects.count())

    response = upload(admin_client, project, content)

    assert response.status_code in (201, 400), (response.status_code, content)
    assert response["Content-Type"].startswith("application/json")
    if response.status_code == 400:
        assert response.json()["message"], content
        assert not Topic.objects.filter(project=project).exists()
        after = (Mention.objects.count(), Annotation.objects.count(), Operation.objects.count())
        assert after == before
    elif response.json()["gold"]:
        download = admin_client.get(
            f"/api/projects/{project.pk}/export/?format=webanno-tsv&source=gold"
        )
        assert download.status_code == 200, content


def test_a_chain_pointing_to_a_missing_link_is_refused_with_its_line_and_field(admin_client):
    project = ProjectFactory.create()
    content = (
        HEADER + "#Text=Anna gave Ben her book .\n"
        "1-1\t0-4\tAnna\t_\t*[1]\t*->1-1\t\n"
        "1-2\t5-9\tgave\t_\t_\t_\t\n"
        "1-3\t10-13\tBen\t_\t*[1]\t*->1-3\t\n"
    )

    response = upload(admin_client, project, content)

    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert errors == [
        (
            "fuzz.tsv: line 9, field referenceRelation: chain 1 goes from link 1 to link 3: "
            "link 2 (1-2) is missing"
        )
    ]
    assert not Topic.objects.filter(project=project).exists()
