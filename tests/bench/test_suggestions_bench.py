"""`python -m bench suggestions` on a fresh clone: before `make up` there is no default ChEMU
link model, and the full benchmark failed its chemu rows (exit 1). It now trains the model first
as `make up` does; the smoke run in `make test` leaves the rows out instead of spending the
training time. Trained here on the stacks' small training file (the real file's first
snippets), so the test stays short."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.suggestions import chemu_model_ready
from modelserve.backends import chemu_model
from tests.integration.stack import chemu_train_head

pytestmark = pytest.mark.bench


@pytest.fixture
def small_train_file(tmp_path) -> Path:
    return chemu_train_head(tmp_path / "train.jsonlines")


def test_the_full_benchmark_trains_the_missing_link_model_before_timing_it(
    settings, small_train_file, tmp_path, capsys
):
    settings.MODELS_DIR = tmp_path / "models"
    settings.CHEMU_TRAIN_FILE = small_train_file

    assert chemu_model_ready(smoke=False)

    assert chemu_model.is_complete(tmp_path / "models" / "chemu")
    assert "training it as make up does" in capsys.readouterr().out
    assert chemu_model_ready(smoke=False)  # found the second time: nothing trained again
    assert "training" not in capsys.readouterr().out


def test_the_smoke_run_leaves_the_chemu_rows_out_and_trains_nothing(
    settings, small_train_file, tmp_path, capsys
):
    settings.MODELS_DIR = tmp_path / "models"
    settings.CHEMU_TRAIN_FILE = small_train_file

    assert not chemu_model_ready(smoke=True)

    assert not (tmp_path / "models").exists()
    assert "not timed, no trained model" in capsys.readouterr().out
