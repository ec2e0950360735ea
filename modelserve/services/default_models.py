"""Default models the application trains on first start when they are missing.

The ChEMU anaphora model trains from the ChEMU-Ref training set (the CHEMU_TRAIN_FILE setting:
../shared/data beside the checkout by default) in about a minute on a laptop CPU into
MODELS_DIR/chemu; `make up` runs this once, later starts find the model there and do nothing.
With STORAGE_URL the model is uploaded to the bucket once trained, and a later start that finds
it there does nothing (modelserve/model_store.py).
"""

from __future__ import annotations

import time
from pathlib import Path

from django.conf import settings

from modelserve.model_store import model_stored, model_upload


def default_models_ensure() -> list[str]:
    lines = link_model_ensure()
    from modelserve.backends.chemu_mentions import DIRECTORY, mentions_trained
    from modelserve.services.trainings import model_training_request

    train_file = Path(settings.CHEMU_TRAIN_FILE)
    trained = model_stored(DIRECTORY) or mentions_trained(Path(settings.MODELS_DIR) / DIRECTORY)
    if not train_file.is_file() and not trained:
        lines.append(
            f"ChEMU mention tagger not trained: {train_file} is missing; runs link the "
            "existing mentions only"
        )
        return lines
    if model_training_request() is not None:
        lines.append(
            "the ChEMU mention tagger trains in the model worker after start-up, then the "
            "default model's ensemble (progress on the admin Suggestions page)"
        )
    return lines


DEFAULT_CHEMU = "the default ChEMU model"


def chemu_trained_texts_record(model_dir: Path, *, train_file: Path) -> None:
    """Record beside the default ChEMU model the texts it was trained on (every snippet of
    its training file, its own held-out share included: text it was tuned on is no test of
    it either), so that an imported snippet from that file is flagged (trained_texts.py)."""
    from corefscore.formats.chemu import read_chemu_jsonlines
    from modelserve.trained_texts import trained_texts_write

    topics = read_chemu_jsonlines(train_file, skip_invalid=True).topics
    documents = [document for topic in topics for document in topic.documents]
    trained_texts_write(model_dir, model=DEFAULT_CHEMU, source=train_file.name, documents=documents)


def link_model_ensure() -> list[str]:
    """Train the ChEMU link model into MODELS_DIR/chemu unless it is there (or in the bucket)."""
    from modelserve.backends.chemu import is_trained
    from modelserve.trained_texts import trained_texts_read
    from modelserve.training.registry import train_file

    model_dir = Path(settings.MODELS_DIR) / "chemu"
    chemu_train = Path(settings.CHEMU_TRAIN_FILE)
    if model_stored("chemu") or is_trained(model_dir):
        # a model trained before its texts were recorded: they are its training file's
        unrecorded = is_trained(model_dir) and trained_texts_read(model_dir) is None
        if unrecorded and chemu_train.is_file():
            chemu_trained_texts_record(model_dir, train_file=chemu_train)
        return []  # with STORAGE_URL the bucket has it: each model worker downloads it
    if not chemu_train.is_file():
        return [
            (
                f"ChEMU anaphora model not trained: {chemu_train} is missing; anaphora "
                "suggestions stay unavailable until `python -m modelserve.train --backend chemu "
                "TRAIN` is run"
            )
        ]
    started = time.monotonic()
    print("training the ChEMU anaphora model (first start only, about a minute)...", flush=True)
    lines: list[str] = []
    train_file("chemu", chemu_train, model_dir, log=lines.append)
    chemu_trained_texts_record(model_dir, train_file=chemu_train)
    model_upload("chemu")  # with STORAGE_URL: into the bucket, for every model worker
    summary = next((line for line in lines if "overall" in line), "")
    return [
        f"ChEMU anaphora model trained in {time.monotonic() - started:.0f} s into {model_dir}"
        + (f" (held out: {summary.strip()})" if summary else "")
    ]
