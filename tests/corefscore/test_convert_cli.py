"""`python -m corefscore convert`, run as users run it (subprocess): any format read to any
written, a pair it cannot do refused with the lists of what it can, an invalid input refused
with nothing written, and the exit statuses the command's help gives."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from corefscore.formats import READERS, WRITERS, read

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures" / "demo"


def corefscore(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "corefscore", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_chemu_through_brat_and_back_scores_as_the_original(tmp_path):
    brat, back = tmp_path / "brat", tmp_path / "back.jsonlines"

    to_brat = corefscore(
        "convert", DEMO / "chemu_demo.jsonlines", brat, "--from", "chemu", "--to", "brat"
    )
    to_chemu = corefscore("convert", brat, back, "--from", "brat", "--to", "chemu")

    assert to_brat.returncode == 0, to_brat.stderr
    assert to_chemu.returncode == 0, to_chemu.stderr
    assert to_brat.stdout.startswith("8 topic(s) read from ")
    assert len(list(brat.glob("*.ann"))) == 8
    scores = corefscore("score", DEMO / "chemu_demo.jsonlines", back, "--format", "chemu", "--json")
    assert scores.returncode == 0, scores.stderr
    result = json.loads(scores.stdout)
    for kind in ("exact", "relaxed"):
        assert result[kind]["overall"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0}
        assert result["mention_detection"][kind]["f1"] == 1.0
    gold = read("chemu", DEMO / "chemu_demo.jsonlines").topics
    assert sum(len(t.links) for t in read("chemu", back).topics) == sum(len(t.links) for t in gold)


def test_what_the_target_cannot_hold_is_said_once_per_message(tmp_path):
    done = corefscore(
        "convert", DEMO / "scico_demo.jsonl", tmp_path / "out", "--from", "scico", "--to", "brat"
    )

    assert done.returncode == 0, done.stderr
    warnings = done.stderr.splitlines()
    assert warnings
    assert all(line.startswith("warning: out: ") for line in warnings)
    assert len(warnings) == len(set(warnings))
    assert any("relations are not written" in line for line in warnings)  # brat: no hierarchy
    assert any(line.endswith(" times)") for line in warnings)


def test_a_pair_it_cannot_do_is_refused_with_what_it_can(tmp_path):
    out = tmp_path / "out.json"

    written_only = corefscore(
        "convert", DEMO / "scico_demo.jsonl", out, "--from", "conll", "--to", "scico"
    )
    read_only = corefscore(
        "convert", DEMO / "scico_demo.jsonl", out, "--from", "scico", "--to", "label-studio"
    )
    unknown = corefscore(
        "convert", DEMO / "scico_demo.jsonl", out, "--from", "sciko", "--to", "scico"
    )

    assert (written_only.returncode, read_only.returncode, unknown.returncode) == (2, 2, 2)
    assert "conll (CoNLL-2012) cannot be read, only written" in written_only.stderr
    assert (
        "label-studio (Label Studio JSON export (import only)) cannot be written"
        in read_only.stderr
    )
    assert "unknown format 'sciko'" in unknown.stderr
    for refused in (written_only, read_only, unknown):
        assert f"Formats read: {', '.join(READERS)}." in refused.stderr
        assert f"Formats written: {', '.join(WRITERS)}." in refused.stderr
        assert refused.stdout == ""
    assert not out.exists()


def test_an_invalid_input_is_refused_whole_and_nothing_is_written(tmp_path):
    bad = tmp_path / "bad.jsonl"
    good = json.loads((DEMO / "scico_demo.jsonl").read_text().splitlines()[0])
    bad.write_text(json.dumps(good) + "\n" + json.dumps({**good, "id": 7, "mentions": "x"}) + "\n")
    out = tmp_path / "out.conll"

    refused = corefscore("convert", bad, out, "--from", "scico", "--to", "conll")
    skipping = corefscore("convert", bad, out, "--from", "scico", "--to", "conll", "--skip-invalid")

    assert refused.returncode == 1
    assert "bad.jsonl: line 2, field mentions" in refused.stderr
    assert "nothing written (--skip-invalid leaves the invalid records out)" in refused.stderr
    assert skipping.returncode == 0, skipping.stderr
    assert "bad.jsonl: line 2: skipped" in skipping.stderr
    assert skipping.stdout.startswith("1 topic(s) read from ")
    assert out.read_text().count("#begin document") >= 1


def test_a_missing_input_and_a_target_that_cannot_hold_the_topics_exit_1(tmp_path):
    missing = corefscore(
        "convert", tmp_path / "nope.jsonl", tmp_path / "o.jsonl", "--from", "scico", "--to", "scico"
    )
    one_file = corefscore(
        "convert",
        DEMO / "scico_demo.jsonl",
        tmp_path / "one.json",
        "--from",
        "scico",
        "--to",
        "corefi",
    )

    assert missing.returncode == 1
    assert missing.stderr.strip() == f"{tmp_path / 'nope.jsonl'}: No such file or directory"
    assert one_file.returncode == 1
    assert "a CoRefi file holds one topic, not 6; give a folder" in one_file.stderr
    assert not (tmp_path / "one.json").exists()


def test_the_help_names_the_command_as_it_is_run():
    shown = corefscore("--help")

    assert shown.returncode == 0
    assert shown.stdout.startswith("usage: python -m corefscore ")
    assert "{score,iaa,convert}" in shown.stdout
