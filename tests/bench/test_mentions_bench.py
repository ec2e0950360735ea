"""`python -m bench mentions` needs no file that another command writes: without
<MODELS_DIR>/chemu-heldout.json or saved models it still prints the held-out table of the run
it times, says how to get the 3-seed table, times inference with the models it just trained,
and exits 0. Tiny size (BENCH_SMOKE=1); the figures mean nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.paths import REPO

pytestmark = pytest.mark.bench


def test_the_mentions_bench_runs_on_a_models_folder_with_nothing_in_it(tmp_path):
    env = dict(os.environ, BENCH_SMOKE="1", PYTHONPATH=str(REPO), MODELS_DIR=str(tmp_path))
    result = subprocess.run(
        [sys.executable, "-m", "bench.mentions"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=540,
        check=False,
    )

    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-3000:])
    assert "held out, seed 0 (the run just timed):" in result.stdout
    # the learning loop's retraining, timed through the loop's own training function
    loops = [line for line in result.stdout.splitlines() if "learning-loop" in line]
    assert len(loops) == 2, loops
    assert "the default: one link model, the shared tagger kept" in loops[0]
    assert "one link model and one tagger of 1 epochs" in loops[1]
    for loop in loops:
        assert "12 snippets = 8 of ChEMU-Ref + 2 team topics x 2: " in loop
        assert " s, encoder cache warm; goal < 180 s" in loop
    assert "the default model's single members, trained once" in result.stdout
    assert "relations (all)" in result.stdout
    assert "--seeds 0,1,2" in result.stdout  # how to get the 3-seed table
    assert "inference on the CPU" in result.stdout  # timed with the models just trained
    assert list(tmp_path.iterdir()) == []  # it wrote nothing in the models folder
