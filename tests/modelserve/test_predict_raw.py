"""`python -m modelserve.predict --backend chemu --raw IN OUT`: snippets with only doc_key and
sentences in, the same snippets with predicted relations in the five relation lists out (the
real command, in a subprocess, on tiny models trained from the packaged MiniLM)."""

import json
import os
import subprocess
import sys

import pytest

from tests.modelserve.test_mention_tagger import tiny_models
from tests.paths import CHEMU_TRAIN, REPO

RELATION_KEYS = ("Coreference", "Transformed", "Reaction-associated", "Work-up", "Contained")


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    return tiny_models(tmp_path_factory.getbasetemp() / "tiny-chemu-models")


def raw_lines(count):
    with open(CHEMU_TRAIN, encoding="utf-8") as stream:
        lines = [json.loads(next(stream)) for _ in range(count)]
    return [{"doc_key": line["doc_key"], "sentences": line["sentences"]} for line in lines]


def predict(*args):
    return subprocess.run(
        [sys.executable, "-m", "modelserve.predict", "--backend", "chemu", *args],
        check=False,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COREFAPP_TORCH_THREADS": "1"},
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
