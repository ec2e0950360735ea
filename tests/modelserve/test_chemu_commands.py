"""`python -m modelserve.train` (both backends) and `python -m modelserve.predict --backend chemu`
as commands."""

import json
import os
import subprocess
import sys

import pytest

from corefscore.formats.chemu import read_chemu_jsonlines, write_chemu_jsonlines
from modelserve.backends.chemu_training import train_chemu
from modelserve.prediction import PREDICTORS, PredictOptions
from tests.paths import CHEMU_TRAIN, REPO, SCICO_DEMO

RELATION_KEYS = ("Coreference", "Transformed", "Reaction-associated", "Work-up", "Contained")


@pytest.fixture(scope="module")
def lines():
    if not CHEMU_TRAIN.is_file():
        pytest.fail(
            "../shared/data is not beside the checkout: the tests read the real data there "
            "(CI has it)"
        )
    with open(CHEMU_TRAIN, encoding="utf-8") as stream:
        return [json.loads(next(stream)) for _ in range(45)]


@pytest.fixture(scope="module")
def model_dir(lines, tmp_path_factory):
    data = tmp_path_factory.mktemp("data") / "train.jsonlines"
    write_lines(data, lines[:40])
    out = tmp_path_factory.mktemp("model")
    topics = read_chemu_jsonlines(data, skip_invalid=True).topics
    train_chemu(
        topics, out, seed=0, holdout_fraction=0.0, epochs=3, device="cpu", log=lambda _: None
    )
    return out


def write_lines(path, objects):
    path.write_text("".join(json.dumps(obj) + "\n" for obj in objects), encoding="utf-8")


def run(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", *args],
        check=False,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COREFAPP_TORCH_THREADS": "1", **(env or {})},
    )


def mention_set(obj):
    return {json.dumps(sorted(m)) for key in RELATION_KEYS for pair in obj[key] for m in pair if m}


def test_predict_writes_the_same_snippets_with_predicted_relations_between_the_given_mentions(
    lines, model_dir, tmp_path
):
    source, out = tmp_path / "in.jsonlines", tmp_path / "out.jsonlines"
    write_lines(source, lines[40:45])
    done = run(
        "modelserve.predict",
        "--backend",
        "chemu",
        str(source),
        str(out),
        "--model",
        str(model_dir),
        "--device",
        "cpu",
    )
    assert done.returncode == 0, done.stderr
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [obj["doc_key"] for obj in written] == [obj["doc_key"] for obj in lines[40:45]]
    for given, predicted in zip(lines[40:45], written, strict=True):
        assert predicted["sentences"] == given["sentences"]
        assert set(RELATION_KEYS) <= set(predicted)
        assert mention_set(predicted) <= mention_set(given)
    assert sum(len(obj[key]) for obj in written for key in RELATION_KEYS) > 10


def test_predict_ignores_the_relations_of_its_input_beyond_the_mentions_they_name(
    lines, model_dir, tmp_path
):
    """Every input link moved to Coreference and turned round: same mentions, so the same output."""
    scrambled = []
    for obj in lines[40:45]:
        pairs = [pair[::-1] for key in RELATION_KEYS for pair in obj[key]]
        scrambled.append({**obj, **{key: [] for key in RELATION_KEYS}, "Coreference": pairs})
    write_lines(tmp_path / "in.jsonlines", lines[40:45])
    write_lines(tmp_path / "scrambled.jsonlines", scrambled)
    options = PredictOptions(models_dir=tmp_path, model=model_dir, device="cpu")
    for name in ("in", "scrambled"):  # in-process: the command itself is run as one above
        topics = read_chemu_jsonlines(tmp_path / f"{name}.jsonlines", skip_invalid=True).topics
        predicted = PREDICTORS["chemu"].given(topics, options)
        write_chemu_jsonlines(predicted, tmp_path / f"{name}.out")
    assert (tmp_path / "in.out").read_text() == (tmp_path / "scrambled.out").read_text()


def test_train_prints_held_out_scores_and_stores_the_model_under_the_var_directory(lines, tmp_path):
    data = tmp_path / "small.jsonlines"
    write_lines(data, lines[:30])
    done = run(
        "modelserve.train",
        "--backend",
        "chemu",
        str(data),
        "--links-only",  # the link model alone (both steps: tests/modelserve/test_mention_*)
        "--holdout",
        "0.2",
        "--epochs",
        "1",
        env={"COREFAPP_VAR_DIR": str(tmp_path / "var")},
    )
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    assert "topics: 24 for training, 6 held out (0 without links skipped)" in printed
    overall = next(line for line in printed if line.startswith("held-out overall")).split()
    assert all(0.0 <= float(value) <= 1.0 for value in overall[2:])
    assert any(line.startswith("held-out WORK_UP") for line in printed)
    config = json.loads((tmp_path / "var" / "models" / "chemu" / "config.json").read_text())
    assert config["holdout_scores"]["exact"]["overall"]["f1"] == pytest.approx(
        float(overall[4]), abs=5e-5
    )
    assert len(config["holdout_topics"]) == 6


def test_train_without_a_training_file_says_where_it_looked(tmp_path):
    done = run("modelserve.train", "--backend", "chemu", str(tmp_path / "missing.jsonlines"))
    assert done.returncode == 2
    assert "missing.jsonlines not found" in done.stderr


def test_train_without_a_file_reads_the_training_file_setting(tmp_path):
    """The default training file is a setting (CHEMU_TRAIN_FILE), not the checkout's layout."""
    missing = tmp_path / "elsewhere.jsonlines"
    done = run("modelserve.train", "--backend", "chemu", env={"CHEMU_TRAIN_FILE": str(missing)})
    assert done.returncode == 2
    assert f"training file {missing} not found" in done.stderr


def test_the_same_command_trains_the_pair_model_from_a_scico_file(tmp_path):
    done = run(
        "modelserve.train",
        "--backend",
        "trained",
        str(SCICO_DEMO),
        "--epochs",
        "1",
        env={"COREFAPP_VAR_DIR": str(tmp_path / "var")},
    )

    assert done.returncode == 0, done.stderr
    assert any(line.startswith("held-out: CoNLL F1") for line in done.stdout.splitlines())
    assert (tmp_path / "var" / "models" / "trained" / "config.json").is_file()
