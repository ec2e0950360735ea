"""python -m corefscore, run as users run it (subprocess)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.formats import scico_line

ROOT = Path(__file__).resolve().parents[3]
SCORE_KEYS = {
    "f1_ci",
    "hierarchy_f1_raw",
    "mentions",
    "mention_detection",
    "muc",
    "bcub",
    "ceafe",
    "lea",
    "conll_f1",
    "hierarchy",
    "hierarchy_50",
    "path_ratio",
}
PRF = {"precision", "recall", "f1"}
TYPES = {"COREFERENCE", "TRANSFORMED", "REACTION_ASSOCIATED", "WORK_UP", "CONTAINED"}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "corefscore", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def clustered_line(topic_id: int, clusters: list[int], relations: list[list[int]]) -> str:
    """A topic of five fixed mentions, the i-th in cluster clusters[i]."""
    spans = [[0, 0, 1], [0, 3, 3], [0, 6, 8], [1, 0, 0], [1, 4, 5]]
    mentions = [span + [cluster] for span, cluster in zip(spans, clusters, strict=True)]
    return scico_line(
        topic_id, tokens=[["w"] * 12, ["v"] * 9], mentions=mentions, relations=relations
    )


@pytest.fixture
def scico_files(tmp_path: Path) -> dict[str, Path]:
    files = {
        "gold": [
            clustered_line(1, [0, 0, 1, 1, 2], [[0, 1]]),
            clustered_line(2, [0, 1, 1, 2, 2], [[1, 2]]),
        ],
        "system": [
            clustered_line(2, [0, 1, 1, 1, 2], [[1, 2]]),
            clustered_line(1, [0, 0, 1, 2, 2], [[0, 1], [1, 2]]),
        ],
        "third": [clustered_line(1, [0, 1, 1, 1, 2], [])],
    }
    paths = {}
    for name, lines in files.items():
        paths[name] = tmp_path / f"{name}.jsonl"
        paths[name].write_text("\n".join(lines) + "\n")
    return paths


def chemu_line(doc_key: str, coreference: list, work_up: list) -> str:
    return json.dumps(
        {
            "doc_key": doc_key,
            "sentences": [["t"] * 30],
            "Coreference": coreference,
            "Transformed": [],
            "Reaction-associated": [],
            "Work-up": work_up,
            "Contained": [],
        }
    )


def test_score_scico_json_has_exactly_the_documented_keys(scico_files):
    completed = run(
        "score", str(scico_files["gold"]), str(scico_files["system"]),
        "--format", "scico", "--json", "--intervals",
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert set(result) == SCORE_KEYS
    assert set(result["mention_detection"]) == {"exact", "relaxed"}
    for key in (
        "mentions",
        "muc",
        "bcub",
        "ceafe",
        "lea",
        "hierarchy",
        "hierarchy_50",
        "hierarchy_f1_raw",
    ):
        assert set(result[key]) == PRF
        assert all(0.0 <= value <= 1.0 for value in result[key].values())
    assert set(result["path_ratio"]) == {"micro", "macro"}
    assert isinstance(result["conll_f1"], float)


def test_keep_singletons_flag_reaches_the_scorer(scico_files):
    plain = json.loads(
        run(
            "score",
            str(scico_files["gold"]),
            str(scico_files["system"]),
            "--format",
            "scico",
            "--json",
        ).stdout
    )
    kept = json.loads(
        run(
            "score",
            str(scico_files["gold"]),
            str(scico_files["system"]),
            "--format",
            "scico",
            "--json",
            "--keep-singletons",
        ).stdout
    )
    assert plain["mentions"] != kept["mentions"]
    assert plain["mention_detection"] == kept["mention_detection"]


def test_score_without_json_prints_a_readable_table(scico_files):
    completed = run(
        "score", str(scico_files["gold"]), str(scico_files["system"]), "--format", "scico"
    )
    assert completed.returncode == 0
    assert "CoNLL F1" in completed.stdout
    assert "path ratio: micro" in completed.stdout


def test_score_chemu_json_has_exactly_the_documented_keys(tmp_path):
    gold = tmp_path / "gold.jsonlines"
    system = tmp_path / "system.jsonlines"
    gold.write_text(chemu_line("0001", [[[[10, 11]], [[0, 1]]]], [[[[20, 21]], [[10, 11]]]]) + "\n")
    system.write_text(
        chemu_line("0001", [[[[10, 11]], [[0, 1]]]], [[[[20, 22]], [[10, 11]]]]) + "\n"
    )
    completed = run("score", str(gold), str(system), "--format", "chemu", "--json", "--intervals")
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert set(result) == {"exact", "relaxed", "anaphors", "mention_detection", "f1_ci"}
    for kind in ("exact", "relaxed"):
        assert set(result[kind]) == {"overall", "per_type"}
        assert set(result[kind]["per_type"]) == TYPES
        assert all(set(prf) == PRF for prf in result[kind]["per_type"].values())
    assert set(result["anaphors"]) == {"exact", "relaxed"}
    assert result["exact"]["overall"]["f1"] == 0.5
    assert result["relaxed"]["overall"]["f1"] == 1.0


def test_links_with_an_empty_side_are_not_scored_and_said_so(tmp_path):
    gold = tmp_path / "gold.jsonlines"
    gold.write_text(chemu_line("0001", [[[[10, 11]], [[0, 1]]], [[], [[3, 4]]]], []) + "\n")
    completed = run("score", str(gold), str(gold), "--format", "chemu", "--json")
    assert completed.returncode == 0, completed.stderr
    assert "1 link(s) with an empty side are not scored" in completed.stderr
    assert json.loads(completed.stdout)["exact"]["per_type"]["COREFERENCE"]["f1"] == 1.0


def test_an_invalid_file_is_reported_with_file_line_and_field_and_exits_non_zero(
    scico_files, tmp_path
):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        clustered_line(1, [0, 0, 1, 1, 2], [])
        + "\n"
        + '{"id": 2, "tokens": [["a"]], "mentions": [[0, 0, 5, 1]]}\n'
    )
    completed = run("score", str(scico_files["gold"]), str(bad), "--format", "scico", "--json")
    assert completed.returncode == 1
    assert "bad.jsonl" in completed.stderr
    assert "line 2" in completed.stderr
    assert "mentions" in completed.stderr
    assert completed.stdout == ""


def test_the_scorer_does_not_check_token_contents_the_importer_does(scico_files, tmp_path):
    """docs/scoring.md, "Input checks": a token that is not a string is an import error, but
    scores do not depend on it; every other problem is reported as the importer reports it."""
    from corefscore.formats import FormatErrors, read

    lines = scico_files["gold"].read_text().splitlines()
    odd = json.loads(lines[0])
    odd["tokens"][0][2] = 7
    numbered = tmp_path / "numbered.jsonl"
    numbered.write_text("\n".join([json.dumps(odd), *lines[1:]]) + "\n")
    with pytest.raises(FormatErrors, match="tokens\\[0\\]\\[2\\]"):
        read("scico", numbered)
    as_is = run(
        "score", str(scico_files["gold"]), str(scico_files["system"]), "--format", "scico", "--json"
    )
    completed = run(
        "score", str(numbered), str(scico_files["system"]), "--format", "scico", "--json"
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == as_is.stdout
    odd["mentions"][0][2] = (
        99  # and a real problem besides: the importer's message, its first error
    )
    numbered.write_text("\n".join([json.dumps(odd), *lines[1:]]) + "\n")
    completed = run(
        "score", str(numbered), str(scico_files["system"]), "--format", "scico", "--json"
    )
    assert completed.returncode == 1
    assert (
        "numbered.jsonl: line 1, field tokens[0][2]: a token must be a string, not a number"
        in completed.stderr
    )


def test_a_topic_missing_from_the_system_is_named(scico_files):
    completed = run(
        "score", str(scico_files["gold"]), str(scico_files["third"]), "--format", "scico"
    )
    assert completed.returncode == 1
    assert "missing from the system: 2" in completed.stderr


def test_a_missing_file_is_an_error_not_a_traceback(tmp_path, scico_files):
    completed = run(
        "score", str(scico_files["gold"]), str(tmp_path / "nope.jsonl"), "--format", "scico"
    )
    assert completed.returncode == 1
    assert "nope.jsonl" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_iaa_json_and_csv(scico_files, tmp_path):
    out = tmp_path / "agreement.csv"
    completed = run(
        "iaa",
        str(scico_files["gold"]),
        str(scico_files["system"]),
        str(scico_files["third"]),
        "--format",
        "scico",
        "--json",
        "--csv",
        str(out),
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert set(result) == {"topics", "overall", "unscored_topics"}
    assert list(result["topics"]["1"]["conll_f1"]["pairs"]) == ["1-2", "1-3", "2-3"]
    assert list(result["topics"]["2"]["path_ratio"]["pairs"]) == ["1-2"]
    assert set(result["overall"]["path_ratio"]) == {
        "avg",
        "std",
        "max_micro",
        "max_macro",
        "avg_ci",
        "max_micro_ci",
        "max_macro_ci",
    }
    with out.open(newline="") as stream:
        rows = list(csv.reader(stream))
    assert rows[0] == [
        "scope",
        "topic",
        "metric",
        "avg",
        "max",
        "annotators",
        "std",
        "max_micro",
        "max_macro",
        "avg_ci_low",
        "avg_ci_high",
        "max_micro_ci_low",
        "max_micro_ci_high",
        "max_macro_ci_low",
        "max_macro_ci_high",
    ]
    assert rows[1][:3] == ["topic", "1", "conll_f1"]
    assert rows[1][5] == "3"
    assert [r[0] for r in rows[1:]].count("overall") == 11


def test_iaa_table_and_names(scico_files):
    completed = run(
        "iaa",
        str(scico_files["gold"]),
        str(scico_files["system"]),
        "--format",
        "scico",
        "--names",
        "ann,bo",
    )
    assert completed.returncode == 0, completed.stderr
    assert "MAX-micro" in completed.stdout
    assert "2 topic(s) scored" in completed.stdout
    named = run(
        "iaa",
        str(scico_files["gold"]),
        str(scico_files["system"]),
        "--format",
        "scico",
        "--names",
        "ann,bo",
        "--json",
    )
    assert list(json.loads(named.stdout)["topics"]["1"]["muc_f1"]["pairs"]) == ["ann-bo"]


def test_iaa_with_a_single_file_is_refused(scico_files):
    completed = run("iaa", str(scico_files["gold"]), "--format", "scico")
    assert completed.returncode == 1
    assert "at least two files" in completed.stderr


def test_the_command_line_reads_the_topics_the_reader_reads(scico_files):
    from corefscore.formats import read
    from corefscore.scoring import cli
    from corefscore.scoring.plain import from_topic

    paths = [str(scico_files["gold"]), str(scico_files["system"])]
    assert cli._read_all(paths, "scico") == [
        [from_topic(topic) for topic in read("scico", path).topics] for path in paths
    ]


def test_files_with_crlf_blank_lines_or_nothing_read_as_the_reader_reads_them(tmp_path):
    from corefscore.formats import read
    from corefscore.scoring import cli
    from corefscore.scoring.plain import from_topic

    lines = [
        clustered_line(1, [0, 0, 1, 1, 2], [[0, 1]]),
        clustered_line(2, [0, 1, 1, 2, 2], [[1, 2]]),
    ]
    files = {
        "crlf.jsonl": "\r\n".join(lines) + "\r\n",
        "blank.jsonl": "\n\n" + "\n  \n".join(lines),
        "empty.jsonl": "",
        "only_blank.jsonl": "\n \n\t\n",
    }
    paths = []
    for name, text in files.items():
        (tmp_path / name).write_bytes(text.encode())
        paths.append(str(tmp_path / name))
    assert cli._read_all(paths, "scico") == [
        [from_topic(t) for t in read("scico", path).topics] for path in paths
    ]


def test_a_file_that_is_not_utf8_is_reported_not_a_traceback(tmp_path, scico_files):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(clustered_line(1, [0, 0, 1, 1, 2], []).encode() + b'\n{"id": "\xff"}\n')
    completed = run("score", str(bad), str(scico_files["gold"]), "--format", "scico")
    assert completed.returncode == 1
    assert "bad.jsonl: line 2: not UTF-8 text" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_json_output_is_json_dumps_with_indent_2(scico_files):
    completed = run(
        "iaa", str(scico_files["gold"]), str(scico_files["system"]), "--format", "scico", "--json"
    )
    assert completed.stdout == json.dumps(json.loads(completed.stdout), indent=2) + "\n"
