"""The Python API `import corefscore` offers (scoring.from_files, formats.convert): the
command line's JSON from files or from topics already read, conversion, and its errors; and
`import corefscore.corpus` (what the application imports everywhere) still loads no reader."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import corefscore
from corefscore.formats import READERS, WRITERS

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures" / "demo"
GOLD, A, B = (DEMO / f"scico_demo{s}.jsonl" for s in ("", "_annotator_a", "_annotator_b"))


def cli_json(*args: str | Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "corefscore", *map(str, args), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def test_score_of_files_is_what_the_command_line_prints():
    scores = corefscore.score(GOLD, A, format="scico")

    assert scores == cli_json("score", GOLD, A, "--format", "scico")
    assert 0.5 < scores["conll_f1"] < 1.0  # the demo annotators disagree a little


def test_score_of_topics_read_equals_score_of_their_files():
    gold, system = (corefscore.read("scico", path).topics for path in (GOLD, A))

    from_topics = corefscore.score(gold, system, format="scico", per_topic=True)

    assert from_topics == corefscore.score(GOLD, A, format="scico", per_topic=True)
    assert [row["topic"] for row in from_topics["per_topic"]] == [t.external_id for t in gold]


def test_scoped_options_are_the_command_lines(tmp_path):
    scoped = corefscore.score(
        GOLD, A, format="scico", topic_ids=["9002", "9001"], level="corpus", keep_singletons=True
    )
    expected = cli_json(
        "score",
        GOLD,
        A,
        "--format",
        "scico",
        "--level",
        "corpus",
        "--keep-singletons",
        "--topics",
        write_ids(tmp_path, ["9002", "9001"]),
    )

    assert scoped == expected
    assert scoped["scope"] == {
        "level": "corpus",
        "topics": 2,
        "cluster_ids": "per-topic",
        "subset": ["9001", "9002"],
    }


def write_ids(folder: Path, ids: list[str]) -> Path:
    path = folder / "topic-ids.txt"
    path.write_text("\n".join(ids) + "\n")
    return path


def test_iaa_of_files_is_what_the_command_line_prints():
    agreement = corefscore.iaa([A, B, GOLD], format="scico", names=["a", "b", "gold"])

    assert agreement == cli_json("iaa", A, B, GOLD, "--format", "scico", "--names", "a,b,gold")
    assert set(agreement["topics"]["9001"]["conll_f1"]["pairs"]) == {"a-b", "a-gold", "b-gold"}


def test_chemu_notes_what_is_read_but_not_scored(tmp_path):
    line = json.loads((DEMO / "chemu_demo.jsonlines").read_text().splitlines()[0])
    line["Coreference"].append([[], [[0, 1]]])  # a link with an empty side: held, not scored
    gold = tmp_path / "gold.jsonlines"
    gold.write_text(json.dumps(line) + "\n")
    notes: list[str] = []

    scores = corefscore.score(
        gold,
        DEMO / "chemu_demo.jsonlines",
        format="chemu",
        note=notes.append,
        topic_ids=[line["doc_key"]],
    )

    assert notes == [f"{gold}: 1 link(s) with an empty side are not scored"]
    assert scores["scope"]["subset"] == [line["doc_key"]]


def test_errors_name_the_file_and_the_topics(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 5, 0]]}\n')

    with pytest.raises(corefscore.InputError, match=r"bad\.jsonl: line 1, field mentions\[0\]"):
        corefscore.score(bad, A, format="scico")
    with pytest.raises(corefscore.InputError, match="missing from the system: 9002"):
        corefscore.score(GOLD, corefscore.read("scico", GOLD).topics[:1], format="scico")
    with pytest.raises(ValueError, match="format must be one of scico, chemu"):
        corefscore.score(GOLD, A, format="brat")


def test_convert_returns_what_it_wrote_and_refuses_a_pair_it_cannot_do(tmp_path):
    done = corefscore.convert(GOLD, tmp_path / "gold.conll", from_format="scico", to_format="conll")

    assert done.topics == 6
    assert (tmp_path / "gold.conll").read_text().count("#begin document") >= 6
    with pytest.raises(corefscore.UnsupportedConversion, match="cannot be written, only read"):
        corefscore.convert(GOLD, tmp_path / "x", from_format="scico", to_format="label-studio")
    with pytest.raises(corefscore.FormatErrors):
        corefscore.convert(
            DEMO / "chemu_demo.jsonlines",
            tmp_path / "y.jsonl",
            from_format="scico",
            to_format="scico",
        )
    assert not (tmp_path / "y.jsonl").exists()


def test_the_api_is_typed_documented_and_loaded_on_first_use():
    for name in ("score", "iaa", "convert", "read"):
        assert getattr(corefscore, name).__doc__
        assert getattr(corefscore, name).__annotations__
    assert set(corefscore.__all__) <= set(dir(corefscore))
    with pytest.raises(AttributeError):
        corefscore.nothing  # noqa: B018
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, corefscore.corpus; print(sorted(m for m in sys.modules if 'coref' in m))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "corefscore.formats" not in loaded
    assert "corefscore.corpus" in loaded


def test_the_readmes_format_table_says_what_each_format_does():
    rows = {}
    for line in (ROOT / "scorer" / "README.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            for name in cells[0].replace("`", "").split(", "):
                rows[name] = (cells[2] == "yes", cells[3] == "yes")

    assert rows == {name: (name in READERS, name in WRITERS) for name in corefscore.FORMATS}
