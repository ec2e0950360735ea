"""guess_format names the format a file looks like, from its first bytes and its name."""

import pytest

from corefscore.formats.guess import guess_files, guess_format
from tests.paths import CHEMU_DEMO, COREFI_DATA, INCEPTION_SUITE, SCICO_DEMO


def head(path, size=65536) -> bytes:
    with open(path, "rb") as stream:
        return stream.read(size)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (SCICO_DEMO, "scico"),
        (CHEMU_DEMO, "chemu"),
        (INCEPTION_SUITE / "testSimpleChain" / "reference.tsv", "webanno-tsv"),
        (INCEPTION_SUITE / "testSimpleChain" / "reference.xmi", "uima-xmi"),
    ],
)
def test_each_format_is_told_from_its_first_bytes(path, expected):
    guess = guess_format(head(path), path.name)
    assert guess is not None
    assert guess.format == expected


def test_a_corefi_file_is_told_even_from_a_cut_head():
    path = min(COREFI_DATA.glob("*.json"))
    assert guess_format(head(path, 200), path.name).format == "corefi"


def test_the_chemu_file_does_not_look_like_scico():
    assert guess_format(head(CHEMU_DEMO), "file.jsonl").format == "chemu"


def test_corefud_and_label_studio_are_told():
    row = "1\tHe\the\tPRON\t_\t_\t2\tnsubj\t_\tEntity=(e1-person-1)\n"
    assert guess_format(("# newdoc id = d1\n" + row).encode()).format == "corefud"
    tasks = b'[{"id": 1, "data": {"text": "x"}, "annotations": []}]'
    assert guess_format(tasks).format == "label-studio"


def test_brat_is_told_from_its_ann_lines_or_a_folder_of_them():
    assert guess_format(b"T1\tMention 0 5\tHello\n").format == "brat"
    assert guess_files(["a.txt", "a.ann"]).format == "brat"
    assert guess_files(["x/doc.tsv"]).format == "webanno-tsv"


def test_plain_text_is_not_guessed():
    assert guess_format(b"just some words\n", "notes.txt") is None
