"""The small ChEMU link model that several test modules give their model worker, trained once
per test run and shared by its pytest processes (pytest-xdist), instead of once per module.

The model is only read (a worker loads it; a module that writes beside it symlinks it into a
models folder of its own), so one copy serves every module.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from pathlib import Path

import pytest

SNIPPETS = 150  # enough training snippets for links the tests' snippets can rely on
EPOCHS = 3


def _shared_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's temporary folder: under xdist each process has its own below a common one."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def chemu_link_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A trained chemu link model folder (the first SNIPPETS training snippets, nothing held
    out, seed 0), trained by whichever process asks first while the others wait on the lock."""
    from corefscore.formats.chemu import read_chemu_jsonlines
    from modelserve.backends.chemu import is_trained
    from modelserve.backends.chemu_training import train_chemu
    from tests.paths import CHEMU_TRAIN

    base = _shared_base(tmp_path_factory)
    folder = base / f"chemu-links-{SNIPPETS}-{EPOCHS}"
    with open(base / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not is_trained(folder):
            topics = read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics[:SNIPPETS]
            building = Path(tempfile.mkdtemp(prefix="chemu-links-", dir=base))
            train_chemu(
                topics,
                building,
                seed=0,
                holdout_fraction=0.0,
                epochs=EPOCHS,
                device="cpu",
                log=lambda line: None,
            )
            building.rename(folder)  # whole or not at all: a killed run leaves no half model
    return folder
