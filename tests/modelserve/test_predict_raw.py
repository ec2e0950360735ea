"""`python -m modelserve.predict --backend chemu --raw IN OUT`: snippets with only doc_key and
sentences in, the same snippets with predicted relations in the five relation lists out (the
real command, in a subprocess, on tiny models trained from the packaged MiniLM). And both
modes with the models folder's defaults, with a trained tagger in it and without one (as
before and after the first `make up` has trained it)."""

import json
import os
import subprocess
import sys

import pytest

from tests.modelserve.backends.test_mention_tagger import tiny_models
from tests.paths import CHEMU_TRAIN, REPO

RELATION_KEYS = ("Coreference", "Transformed", "Reaction-associated", "Work-up", "Contained")


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    return tiny_models(tmp_path_factory.getbasetemp() / "tiny-chemu-models")


@pytest.fixture(scope="module")
def models_folders(models, tmp_path_factory):
    """Two models folders with the same link model, one with the tagger and one without."""
    links_dir, mentions_dir, _, _ = models
    tagged, untagged = tmp_path_factory.mktemp("tagged"), tmp_path_factory.mktemp("untagged")
    for folder in (tagged, untagged):
        (folder / "chemu").symlink_to(links_dir)
    (tagged / "chemu-mentions").symlink_to(mentions_dir)
    return tagged, untagged


def given_lines(start, stop):
    with open(CHEMU_TRAIN, encoding="utf-8") as stream:
        return [json.loads(line) for _, line in zip(range(stop), stream, strict=False)][start:]


def mention_set(line):
    return {json.dumps(sorted(m)) for key in RELATION_KEYS for pair in line[key] for m in pair}


def raw_lines(count):
    with open(CHEMU_TRAIN, encoding="utf-8") as stream:
        lines = [json.loads(next(stream)) for _ in range(count)]
    return [{"doc_key": line["doc_key"], "sentences": line["sentences"]} for line in lines]


def predict(*args, models_dir=None):
    return subprocess.run(
        [sys.executable, "-m", "modelserve.predict", "--backend", "chemu", *args],
        check=False,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        env={
            **os.environ,
            "COREFAPP_TORCH_THREADS": "1",
            **({"MODELS_DIR": str(models_dir)} if models_dir else {}),
        },
    )


def test_raw_snippets_come_back_with_predicted_relations_in_the_five_lists(models, tmp_path):
    links_dir, mentions_dir, _, _ = models
    source, out = tmp_path / "raw.jsonlines", tmp_path / "predicted.jsonlines"
    snippets = raw_lines(3)
    source.write_text("".join(json.dumps(s) + "\n" for s in snippets), encoding="utf-8")
    result = predict(
        "--raw", str(source), str(out), "--model", str(links_dir),
        "--mentions-model", str(mentions_dir), "--device", "cpu",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [w["doc_key"] for w in written] == [s["doc_key"] for s in snippets]
    relations = 0
    for line, snippet in zip(written, snippets, strict=True):
        assert list(line) == ["doc_key", "sentences", *RELATION_KEYS]
        assert line["sentences"] == snippet["sentences"]
        tokens = sum(len(sentence) for sentence in snippet["sentences"])
        for key in RELATION_KEYS:
            for anaphor, antecedent in line[key]:
                for mention in (anaphor, antecedent):
                    assert mention
                    assert all(0 <= s <= e < tokens for s, e in mention)
                assert min(s for s, _ in antecedent) < min(s for s, _ in anaphor)
                relations += 1
    assert relations > 0
    assert "snippets/s" in result.stderr


def test_raw_without_a_trained_tagger_says_how_to_train_one(models, tmp_path):
    links_dir, _, _, _ = models
    source = tmp_path / "raw.jsonlines"
    source.write_text(json.dumps(raw_lines(1)[0]) + "\n", encoding="utf-8")
    result = predict(
        "--raw", str(source), str(tmp_path / "out.jsonlines"), "--model", str(links_dir),
        "--mentions-model", str(tmp_path / "nothing"),
    )  # fmt: skip
    assert result.returncode == 2
    assert "no trained mention tagger" in result.stderr
    assert "modelserve.train" in result.stderr


def test_given_mentions_are_linked_alone_whether_the_models_folder_has_a_tagger_or_not(
    models_folders, tmp_path
):
    """With a tagger in the models folder, the backend's proposed mentions made
    links to mentions the output does not have, and writing them crashed."""
    source = tmp_path / "in.jsonlines"
    given = given_lines(60, 66)  # snippets the link model was not trained on
    source.write_text("".join(json.dumps(line) + "\n" for line in given), encoding="utf-8")
    written = []
    for folder in models_folders:
        out = tmp_path / f"{folder.name}.jsonlines"
        result = predict(str(source), str(out), "--device", "cpu", models_dir=folder)
        assert result.returncode == 0, result.stderr
        written.append(out.read_text(encoding="utf-8"))
    assert written[0] == written[1]  # the tagger plays no part
    predicted = [json.loads(line) for line in written[0].splitlines()]
    for line, source_line in zip(predicted, given, strict=True):
        assert mention_set(line) <= mention_set(source_line)
    assert sum(len(line[key]) for line in predicted for key in RELATION_KEYS) > 0


def test_raw_uses_the_models_folders_tagger_and_without_one_says_so(models_folders, tmp_path):
    tagged, untagged = models_folders
    source = tmp_path / "raw.jsonlines"
    source.write_text("".join(json.dumps(s) + "\n" for s in raw_lines(3)), encoding="utf-8")
    out = tmp_path / "predicted.jsonlines"
    result = predict("--raw", str(source), str(out), "--device", "cpu", models_dir=tagged)
    assert result.returncode == 0, result.stderr
    predicted = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sum(len(line[key]) for line in predicted for key in RELATION_KEYS) > 0
    refused = predict("--raw", str(source), str(tmp_path / "none"), models_dir=untagged)
    assert refused.returncode == 2
    assert "no trained mention tagger" in refused.stderr
